"""Reference solution for causal attention in tiles (FlashAttention's result, exactly).

Queries are taken in blocks of 64; a block sees only the keys up to its last row, so its scores
are at most 64 x T per head (2 MiB in float64 at T = 4096) and the T x T matrix never exists. Each block's
softmax is exact (the row maximum over its visible keys subtracted, future keys at -inf); the
online softmax of FlashAttention gives the same numbers up to rounding. `dtype` is float64 for
judging; the test generator re-runs it in np.longdouble to reject ill-conditioned tests.
"""

from __future__ import annotations

import numpy as np

BLOCK = 64


class Solution:
    dtype = np.float64

    def flash_attention(self, Q, K, V):
        f = lambda a: np.asarray(a, dtype=self.dtype)  # noqa: E731
        Q, K, V = f(Q), f(K), f(V)
        h, T, d = Q.shape
        scale = 1 / np.sqrt(self.dtype(d))
        out = np.empty_like(Q)
        for start in range(0, T, BLOCK):
            stop = min(start + BLOCK, T)
            S = Q[:, start:stop] @ K[:, :stop].transpose(0, 2, 1) * scale  # (h, rows, stop)
            rows = np.arange(start, stop)[:, None]
            S[:, np.arange(stop)[None, :] > rows] = -np.inf  # key u > t is in the future
            S -= S.max(axis=-1, keepdims=True)  # finite: key t itself is always visible
            P = np.exp(S)  # no out=: only a plain call gets the portable long double exp
            out[:, start:stop] = (P @ V[:, :stop]) / P.sum(axis=-1, keepdims=True)
        return out
