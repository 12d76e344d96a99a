# Bug: the shared key projection is squeezed and its shape unpacked, so T = 1 (or d_k = 1) makes `T, d_k = K.shape` raise ValueError.
"""Multi-query attention: a loop over query heads against one squeezed key/value head."""

import numpy as np


class Solution:
    def multi_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        X = f(X)
        Q = X @ f(W_Q) + f(b_Q)
        K = np.squeeze(X @ f(W_K) + f(b_K))
        V = np.squeeze(X @ f(W_V) + f(b_V))
        T, d_k = K.shape

        out = np.empty_like(Q)
        for h in range(num_heads):
            cols = slice(h * d_k, (h + 1) * d_k)
            s = Q[:, cols] @ K.T / np.sqrt(d_k)
            s -= s.max(axis=1, keepdims=True)
            w = np.exp(s)
            w /= w.sum(axis=1, keepdims=True)
            out[:, cols] = w @ V
        return out @ f(W_O) + f(b_O)
