# ACCEPTED: V extended by a column of ones, so one prefix sum of phi(k) [v, 1]^T carries numerator and normaliser together.
import numpy as np


class Solution:
    def linear_attention(self, Q, K, V):
        Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
        fq = np.where(Q > 0, Q + 1.0, np.exp(np.minimum(Q, 0.0)))
        fk = np.where(K > 0, K + 1.0, np.exp(np.minimum(K, 0.0)))
        v1 = np.concatenate([V, np.ones(V.shape[:-1] + (1,))], axis=-1)  # (h, T, d_v + 1)
        state = np.cumsum(fk[..., :, None] * v1[..., None, :], axis=1)  # (h, T, d, d_v + 1)
        both = np.matmul(fq[..., None, :], state)[..., 0, :]  # (h, T, d_v + 1)
        return both[..., :-1] / both[..., -1:]
