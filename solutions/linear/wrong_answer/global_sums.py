# WRONG: not causal: S and z summed over all T positions (the global form of non-causal linear attention).
import numpy as np


def phi(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


class Solution:
    def linear_attention(self, Q, K, V):
        fq = phi(np.asarray(Q, dtype=np.float64))
        fk = phi(np.asarray(K, dtype=np.float64))
        V = np.asarray(V, dtype=np.float64)
        S = np.broadcast_to(np.einsum("htd,hte->hde", fk, V)[:, None], fk.shape + V.shape[-1:])
        z = np.broadcast_to(fk.sum(axis=1, keepdims=True), fk.shape)
        return np.einsum("htd,htde->hte", fq, S) / np.einsum("htd,htd->ht", fq, z)[..., None]
