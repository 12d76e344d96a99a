# WRONG: only the first head's query columns are used: every head attends with Q[:, :d_k] instead of its own block.
import numpy as np


class Solution:
    def multi_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        X = np.asarray(X, dtype=np.float64)
        T, d_model = X.shape
        d_k = d_model // num_heads
        WQ, WK, WV, WO = (np.asarray(W, dtype=np.float64) for W in (W_Q, W_K, W_V, W_O))
        bQ, bK, bV, bO = (np.asarray(b, dtype=np.float64) for b in (b_Q, b_K, b_V, b_O))

        Q = X @ WQ + bQ  # (T, d_model): head h owns columns h*d_k .. (h+1)*d_k - 1
        K = X @ WK + bK  # (T, d_k), shared by every head
        V = X @ WV + bV

        H = np.empty((T, d_model))
        for h in range(num_heads):
            scores = Q[:, :d_k] @ K.T / np.sqrt(d_k)
            scores -= scores.max(axis=1, keepdims=True)
            weights = np.exp(scores)
            weights /= weights.sum(axis=1, keepdims=True)
            H[:, h * d_k:(h + 1) * d_k] = weights @ V

        O = H @ WO + bO
        return O.tolist()
