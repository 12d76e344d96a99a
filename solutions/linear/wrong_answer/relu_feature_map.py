# WRONG: relu instead of elu + 1 as the feature map: a query or key with no positive coordinate gets phi = 0, and rows become 0/0.
import numpy as np


def phi(x):
    return np.maximum(x, 0.0)


class Solution:
    def linear_attention(self, Q, K, V):
        fq = phi(np.asarray(Q, dtype=np.float64))
        fk = phi(np.asarray(K, dtype=np.float64))
        V = np.asarray(V, dtype=np.float64)
        S = np.cumsum(np.einsum("htd,hte->htde", fk, V), axis=1)
        z = np.cumsum(fk, axis=1)
        return np.einsum("htd,htde->hte", fq, S) / np.einsum("htd,htd->ht", fq, z)[..., None]
