# Bug: np.squeeze on each head's output turns a (T, 1) head into shape (T,), which cannot be stored into its (T, 1) slot: ValueError whenever d_k = 1 and T >= 2.
"""Grouped query attention with a loop over query heads; each head's result is squeezed."""

import numpy as np


class Solution:
    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        X = f(X)
        T, d_model = X.shape
        d_k = d_model // h_q
        group = h_q // h_k

        Q = X @ f(W_Q) + f(b_Q)
        K = X @ f(W_K) + f(b_K)
        V = X @ f(W_V) + f(b_V)

        H = np.zeros((T, d_model))
        for i in range(h_q):
            g = i // group
            Qi = Q[:, i * d_k:(i + 1) * d_k]
            Kg = K[:, g * d_k:(g + 1) * d_k]
            Vg = V[:, g * d_k:(g + 1) * d_k]
            s = Qi @ Kg.T / np.sqrt(d_k)
            a = np.exp(s - s.max(axis=1, keepdims=True))
            a /= a.sum(axis=1, keepdims=True)
            H[:, i * d_k:(i + 1) * d_k] = np.squeeze(a @ Vg)
        return (H @ f(W_O) + f(b_O)).tolist()
