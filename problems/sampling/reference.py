"""Reference solution for next-token sampling with temperature, top-k and top-p.

Vectorised over the batch: one stable argsort ranks every row's tokens (largest scaled logit
first, ties by lower index), top-k and top-p are cuts of that ranking, and the token is found by
counting the cumulative probabilities, in token order, that do not exceed u. `dtype` is float64
for judging; the test generator re-runs it in np.longdouble.

The output is an exact token id, so no decision may rest on rounding. The reference therefore
returns NaN for a row where one does: u or top_p within MARGIN of a cumulative probability it is
compared with, or two distinct scaled logits nearly tied at the top-k or top-p cut. The generator
then redraws the test (its expected output must be finite), so every stored test keeps that
distance, as the statement promises.
"""

from __future__ import annotations

import numpy as np

MARGIN = 1e-9  # on the probability scale: far above any order of summation's rounding (~1e-13)


class Solution:
    dtype = np.float64

    def sample_next_tokens(self, logits, temperature, top_k, top_p, u):
        s = np.asarray(logits, dtype=self.dtype) / self.dtype(temperature)
        u = np.asarray(u, dtype=self.dtype)
        top_p = self.dtype(top_p)
        B, V = s.shape
        rows = np.arange(B)[:, None]
        k = V if top_k == 0 else top_k

        # Ranking: scaled logit descending, equal ones by lower index (a stable sort of -s).
        order = np.argsort(-s, axis=1, kind="stable")
        ranked = s[rows, order]

        # Softmax over the top k, shifted by the row maximum (ranked[:, 0]).
        e = np.exp(ranked - ranked[:, :1])
        e[:, k:] = 0
        prob = e / e.sum(axis=1, keepdims=True)

        # Top-p: a token is kept when the mass ranked before it is below top_p (so the token that
        # reaches top_p is kept); top_p = 1 keeps every token, and rank 0 is always kept. No test has
        # top_p in (1 - MARGIN, 1): the conditioning check's few-ulp nudge of top_p = 1 lands there,
        # and must not drop tail tokens whose mass before them rounds to 1.
        before = np.cumsum(prob, axis=1) - prob
        keep = np.broadcast_to(np.arange(V) < k, (B, V)).copy()
        if top_p < 1 - MARGIN:
            keep &= before < top_p
        keep[:, 0] = True

        # Renormalise over the kept tokens, back in token order, and invert the CDF.
        kept = np.zeros((B, V), dtype=bool)
        kept[rows, order] = keep
        w = np.zeros((B, V), dtype=self.dtype)
        w[rows, order] = np.where(keep, e, 0)
        w /= w.sum(axis=1, keepdims=True)
        cdf = np.cumsum(w, axis=1)
        token = (cdf <= u[:, None]).sum(axis=1)  # the first index whose cumulative exceeds u
        last_kept = V - 1 - np.argmax(kept[:, ::-1], axis=1)
        fallback = token >= V  # only u = 1 exceeds every cumulative
        token = np.where(fallback, last_kept, token)

        out = token.astype(self.dtype)
        for b in range(B):
            if not self._clear(ranked[b], before[b], keep[b], k, top_p, kept[b], cdf[b], u[b],
                               int(token[b])):
                out[b] = np.nan
        return out

    def _clear(self, ranked, before, keep, k, top_p, kept, cdf, u, token):
        """Whether every decision of this row has MARGIN to spare (so any order of operations agrees)."""
        n = int(keep.sum())  # tokens kept, the first n of the ranking
        for cut in {k, n}:  # the top-k cut and the final cut: equal logits or clearly apart
            if 0 < cut < len(ranked):
                a, b = ranked[cut - 1], ranked[cut]
                if a != b and a - b <= MARGIN * max(1, abs(a)):
                    return False
        if top_p < 1 - MARGIN and np.any(np.abs(before[1:k] - top_p) <= MARGIN):
            return False
        # The token's cumulative interval [below, cdf[token]) must hold u with MARGIN on each side,
        # except at the ends: nothing kept before the token (below is an exact 0) or after it (its
        # cumulative is the total, and u = 1 or just under picks it either way).
        below = cdf[token - 1] if token > 0 else 0
        last = not kept[token + 1:].any()
        first = not kept[:token].any()
        return (last or cdf[token] - u > MARGIN) and (first or u - below > MARGIN)
