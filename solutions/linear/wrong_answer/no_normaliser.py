# WRONG: no normaliser: phi(q_t)^T S_t returned without the division by phi(q_t) . z_t (the CUDA path of lucidrains/performer-pytorch before its issue #40).
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
        return np.einsum("htd,htde->hte", fq, S)
