# MEMORY LIMIT: the O(T^2) form: the full T x T matrix phi(Q) phi(K)^T with its lower triangle kept, 32 GiB at T = 65536.
import numpy as np


class Solution:
    def linear_attention(self, Q, K, V):
        Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
        fq = np.where(Q > 0, Q + 1.0, np.exp(np.minimum(Q, 0.0)))
        fk = np.where(K > 0, K + 1.0, np.exp(np.minimum(K, 0.0)))
        A = np.tril(fq @ fk.transpose(0, 2, 1))  # (h, T, T)
        return (A @ V) / A.sum(axis=-1, keepdims=True)
