# WRONG: output bias b_O forgotten: O = H W_O.
import numpy as np


class Solution:
    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        X = np.asarray(X, dtype=np.float64)
        T, d_model = X.shape
        d_k = d_model // h_q
        group_size = h_q // h_k
        WQ, WK, WV, WO = (np.asarray(W, dtype=np.float64) for W in (W_Q, W_K, W_V, W_O))
        bQ, bK, bV = (np.asarray(b, dtype=np.float64) for b in (b_Q, b_K, b_V))

        # Split heads: (T, n*d_k) -> (T, n, d_k) -> (n, T, d_k).
        Q = (X @ WQ + bQ).reshape(T, h_q, d_k).transpose(1, 0, 2)
        K = (X @ WK + bK).reshape(T, h_k, d_k).transpose(1, 0, 2)
        V = (X @ WV + bV).reshape(T, h_k, d_k).transpose(1, 0, 2)

        heads = np.empty((h_q, T, d_k))
        for i in range(h_q):
            g = i // group_size
            scores = Q[i] @ K[g].T / np.sqrt(d_k)
            scores -= scores.max(axis=1, keepdims=True)
            weights = np.exp(scores)
            weights /= weights.sum(axis=1, keepdims=True)
            heads[i] = weights @ V[g]

        # Merge heads: (h_q, T, d_k) -> (T, h_q, d_k) -> (T, d_model).
        H = heads.transpose(1, 0, 2).reshape(T, d_model)
        O = H @ WO
        return O.tolist()
