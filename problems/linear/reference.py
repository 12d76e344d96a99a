"""Reference solution for causal linear attention with the elu + 1 feature map (Katharopoulos et al. 2020).

Prefix sums over the positions, vectorised over heads: O(T d d_v) work. `dtype` is float64 for
judging; the test generator re-runs it in np.longdouble, where np.exp is the portable version of
testcases/oracle.py. phi(x) = exp(x) is taken for x <= 0 directly (never as (exp(x) - 1) + 1, which
cancels to 0 below x = -37).
"""

from __future__ import annotations

import numpy as np


class Solution:
    dtype = np.float64

    def linear_attention(self, Q, K, V):
        Q = np.asarray(Q, dtype=self.dtype)  # (h, T, d)
        K = np.asarray(K, dtype=self.dtype)
        V = np.asarray(V, dtype=self.dtype)  # (h, T, d_v)

        def phi(x):  # elu(x) + 1
            return np.where(x > 0, x + 1, np.exp(np.minimum(x, 0)))

        fq, fk = phi(Q), phi(K)
        state = np.cumsum(fk[..., :, None] * V[..., None, :], axis=1)  # S_t: (h, T, d, d_v)
        z = np.cumsum(fk, axis=1)  # z_t: (h, T, d)
        numerator = (fq[..., :, None] * state).sum(axis=-2)  # (h, T, d_v)
        denominator = (fq * z).sum(axis=-1)  # (h, T)
        return numerator / denominator[..., None]
