"""Reference solution for a Mixtral-style sparse mixture-of-experts layer.

Router logits X W_g; each token's top_k experts by a stable sort of the negated logits (equal
logits keep the lower expert index first); a max-shifted softmax over the chosen logits only; then
a loop over experts, each running its SwiGLU on the tokens routed to it and adding the weighted
result. `dtype` is float64 for judging; the test generator re-runs it in np.longdouble, where
np.exp is the portable exp of testcases/oracle.py.

Which experts are chosen must not rest on rounding: the reference returns NaN for a token whose
k-th and (k+1)-th largest logits are distinct but within MARGIN of each other (relative to the k-th,
at least 1), and the generator then redraws the test, so every stored test keeps that gap, as the
statement promises. W_g is never nudged by the conditioning check (it is in the group "input", so
that exact ties survive), so this guard is what keeps a near-tie out of the tests.
"""

from __future__ import annotations

import numpy as np

MARGIN = 1e-9  # relative: far above any order of summation's rounding of a logit (below 1e-10 here)


class Solution:
    dtype = np.float64

    def sparse_moe(self, X, W_g, W1, W2, W3, top_k):
        f = lambda a: np.asarray(a, dtype=self.dtype)  # noqa: E731
        X, W1, W2, W3 = f(X), f(W1), f(W2), f(W3)
        logits = X @ f(W_g)  # (T, num_experts)
        order = np.argsort(-logits, axis=1, kind="stable")
        chosen = order[:, :top_k]  # (T, top_k), best first
        top = np.take_along_axis(logits, chosen, axis=1)
        weights = np.exp(top - top[:, :1])  # the first chosen logit is the largest
        weights /= weights.sum(axis=1, keepdims=True)
        out = np.zeros_like(X)
        for e in range(W1.shape[0]):
            rows, slot = np.nonzero(chosen == e)  # a token picks expert e at most once
            if rows.size == 0:
                continue
            x = X[rows]
            g = x @ W1[e]
            with np.errstate(over="ignore"):  # exp(-g) = inf for g < -709.78 in float64: silu is -0.0
                silu = g / (1 + np.exp(-g))
            out[rows] += weights[rows, slot][:, None] * ((silu * (x @ W3[e])) @ W2[e])
        if top_k < logits.shape[1]:  # a cut between the k-th and (k+1)-th experts: equal or clearly apart
            ranked = np.take_along_axis(logits, order[:, top_k - 1:top_k + 1], axis=1)
            a, b = ranked[:, 0], ranked[:, 1]
            out[(a != b) & (a - b <= MARGIN * np.maximum(1, np.abs(a)))] = np.nan
        return out.tolist()
