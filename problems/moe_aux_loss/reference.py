"""Reference solution for the top-k load-balancing loss of a mixture-of-experts router.

P_e is the mean over tokens of a max-shifted softmax over all E logits; f_e counts the tokens
whose top_k experts (a stable sort of the negated logits: equal logits keep the lower index first)
include e, divided by T, as Hugging Face's load_balancing_loss_func does; the loss is E * f . P.
`dtype` is float64 for judging; in np.longdouble the test generator's np.exp is the portable one.

Which experts are chosen must not rest on rounding, whether a solution ranks the logits or the
probabilities: for a token whose k-th and (k+1)-th logits a > b differ, the reference returns NaN
(the generator redraws, `judge run --input` refuses) when a - b <= MARGIN * max(1, |a|) or when a
lies more than UNDERFLOW below the token's largest logit, where exp(a - max) is no longer a normal
float64 and the k-th and (k+1)-th probabilities could both round to 0.
"""

from __future__ import annotations

import numpy as np

MARGIN = 1e-9  # relative: far above the rounding of a softmax probability (1e-12 at logits of 1e4)
UNDERFLOW = 700.0  # exp(-700) = 1e-304, still normal; float64's normal range ends at exp(-708.4)


class Solution:
    dtype = np.float64

    def load_balancing_loss(self, router_logits, top_k):
        logits = np.asarray(router_logits, dtype=self.dtype)
        T, E = logits.shape
        top = logits.max(axis=1, keepdims=True)
        probs = np.exp(logits - top)
        probs /= probs.sum(axis=1, keepdims=True)
        order = np.argsort(-logits, axis=1, kind="stable")
        counts = np.bincount(order[:, :top_k].ravel(), minlength=E).astype(self.dtype)
        f = counts / self.dtype(T)
        P = probs.sum(axis=0) / self.dtype(T)
        loss = self.dtype(E) * (f * P).sum()
        if top_k < E:
            ranked = np.take_along_axis(logits, order[:, top_k - 1:top_k + 1], axis=1)
            a, b = ranked[:, 0], ranked[:, 1]
            near = (a - b <= MARGIN * np.maximum(1, np.abs(a))) | (a < top[:, 0] - UNDERFLOW)
            if np.any((a != b) & near):
                return self.dtype(np.nan)
        return loss
