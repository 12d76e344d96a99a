"""Reference solution for the verification step of speculative decoding.

Both models' probabilities come from max-shifted softmaxes of their logits. Draft token i is
accepted while u_accept[i] * q_i(x_i) <= p_i(x_i) (u <= min(1, p/q) without a division); at the
first rejection the corrected token is drawn from max(0, p_i - q_i) renormalised, and when every
draft token is accepted the bonus token is drawn from p_K, both by inverting the cumulative
distribution over token ids with u_sample. `dtype` is float64 for judging; the test generator
re-runs it in np.longdouble.

The output is exact token ids, so no decision may rest on rounding. The reference returns NaN
(the generator then redraws the test) when one does: an acceptance ratio within MARGIN of its
uniform, a draft token whose draft probability is too small for the ratio to be trusted, a
residual of too little mass, or u_sample within MARGIN of a cumulative probability it is compared
with. The statement promises every stored test keeps those distances.
"""

from __future__ import annotations

import numpy as np

MARGIN = 1e-9  # on the probability scale: far above any order of summation's rounding (~1e-13)
SMALLEST_DRAFT = 1e-30  # q_i(x_i) below this: p/q is 0/0 or inf in some correct programs
SMALLEST_RESIDUAL = 1e-4  # the residual's mass: its rounding (~1e-16 / mass) stays far below MARGIN


class Solution:
    dtype = np.float64

    def verify_draft(self, draft_tokens, draft_logits, target_logits, u_accept, u_sample):
        q = self._softmax(draft_logits)
        p = self._softmax(target_logits)
        u = np.asarray(u_accept, dtype=self.dtype)
        u_sample = self.dtype(u_sample)
        K = q.shape[0]
        out = np.full(K + 1, -1, dtype=self.dtype)
        for i, x in enumerate(draft_tokens):
            a, b = p[i, x], q[i, x]
            if not self._clear_accept(a, b, u[i]):
                return np.full(K + 1, np.nan, dtype=self.dtype)
            if u[i] * b <= a:  # accepted
                out[i] = x
                continue
            residual = np.maximum(p[i] - q[i], 0)
            # Tokens with q clearly above p have residual 0 in every program; the rest may not.
            zero = q[i] - p[i] > MARGIN * np.maximum(p[i], q[i])
            if residual.sum() < SMALLEST_RESIDUAL:
                return np.full(K + 1, np.nan, dtype=self.dtype)
            out[i] = self._inverse_cdf(residual, zero, u_sample)
            return out
        out[K] = self._inverse_cdf(p[K], np.zeros(p.shape[1], dtype=bool), u_sample)
        return out

    def _softmax(self, logits):
        z = np.asarray(logits, dtype=self.dtype)
        e = np.exp(z - z.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def _clear_accept(self, a, b, u):
        """Whether u <= min(1, a / b) is decided by more than rounding."""
        if b < SMALLEST_DRAFT:
            return False
        if u == 0:  # 0 <= anything: accepted by every program that compares with <=
            return True
        ratio = min(1, a / b)
        if u == 1:  # accepted exactly when a >= b
            return abs(a / b - 1) > MARGIN
        return abs(ratio - u) > MARGIN

    def _inverse_cdf(self, w, zero, u):
        """The first id whose cumulative probability (w renormalised) exceeds u, or the last id
        of positive probability when none does (u = 1); NaN when rounding could decide it.
        `zero` marks the ids whose probability is exactly 0 in every correct program."""
        cdf = np.cumsum(w / w.sum())
        token = int(np.count_nonzero(cdf <= u))
        if token == len(w):
            token = int(np.flatnonzero(w > 0)[-1])
        below = cdf[token - 1] if token > 0 else 0
        first = bool(zero[:token].all())
        last = bool(zero[token + 1:].all())
        if (last or cdf[token] - u > MARGIN) and (first or u - below > MARGIN):
            return token
        return np.nan
