# ACCEPTED: prefix sums over positions: S_t = cumsum of phi(k_u) v_u^T, z_t = cumsum of phi(k_u), then one contraction per row.
import numpy as np


def phi(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


class Solution:
    def linear_attention(self, Q, K, V):
        fq = phi(np.asarray(Q, dtype=np.float64))
        fk = phi(np.asarray(K, dtype=np.float64))
        V = np.asarray(V, dtype=np.float64)
        S = np.cumsum(np.einsum("htd,hte->htde", fk, V), axis=1)
        z = np.cumsum(fk, axis=1)
        return np.einsum("htd,htde->hte", fq, S) / np.einsum("htd,htd->ht", fq, z)[..., None]
