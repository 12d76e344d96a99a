# Accepted: numpy loop over query heads, each head's block of d_k columns of Q attending over the one shared K/V head.
import numpy as np


class Solution:
    def multi_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        X = np.asarray(X, dtype=np.float64)
        T, d_model = X.shape
        d_k = d_model // num_heads
        Q = X @ np.asarray(W_Q, dtype=np.float64) + np.asarray(b_Q, dtype=np.float64)  # (T, d_model)
        K = X @ np.asarray(W_K, dtype=np.float64) + np.asarray(b_K, dtype=np.float64)  # (T, d_k)
        V = X @ np.asarray(W_V, dtype=np.float64) + np.asarray(b_V, dtype=np.float64)  # (T, d_k)
        Kt = np.ascontiguousarray(K.T)
        inv_sqrt_dk = 1.0 / np.sqrt(d_k)

        H = np.empty((T, d_model))
        for h in range(num_heads):
            cols = slice(h * d_k, (h + 1) * d_k)
            s = (Q[:, cols] @ Kt) * inv_sqrt_dk
            s -= s.max(axis=1, keepdims=True)
            np.exp(s, out=s)
            s /= s.sum(axis=1, keepdims=True)
            H[:, cols] = s @ V

        return H @ np.asarray(W_O, dtype=np.float64) + np.asarray(b_O, dtype=np.float64)
