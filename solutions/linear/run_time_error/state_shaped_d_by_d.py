# RUN-TIME ERROR: the running state allocated d x d (the paper's examples have d_v = d): broadcasting fails when d_v != d.
import numpy as np


class Solution:
    def linear_attention(self, Q, K, V):
        Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
        fq = np.where(Q > 0, Q + 1.0, np.exp(np.minimum(Q, 0.0)))
        fk = np.where(K > 0, K + 1.0, np.exp(np.minimum(K, 0.0)))
        h, T, d = Q.shape
        S = np.zeros((h, T, d, d))
        S[...] = fk[..., :, None] * V[..., None, :]
        S = np.cumsum(S, axis=1)
        z = np.cumsum(fk, axis=1)
        return np.einsum("htd,htde->hte", fq, S) / np.einsum("htd,htd->ht", fq, z)[..., None]
