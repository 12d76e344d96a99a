# Bug: np.squeeze on the stacked key/value heads removes the head axis when h_k = 1, so K[g] is one key row and the softmax over axis 1 raises AxisError (any test with h_k = 1 and T, d_k >= 2; also T = 1 or d_k = 1).
"""Grouped query attention: key/value heads stacked as (h_k, T, d_k) and tidied with squeeze."""

import numpy as np


class Solution:
    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        X = f(X)
        T, d_model = X.shape
        d_k = d_model // h_q
        group = h_q // h_k

        Q = (X @ f(W_Q) + f(b_Q)).reshape(T, h_q, d_k).transpose(1, 0, 2)
        K = np.squeeze((X @ f(W_K) + f(b_K)).reshape(T, h_k, d_k).transpose(1, 0, 2))
        V = np.squeeze((X @ f(W_V) + f(b_V)).reshape(T, h_k, d_k).transpose(1, 0, 2))

        heads = []
        for i in range(h_q):
            K_g, V_g = K[i // group], V[i // group]
            s = Q[i] @ K_g.T / np.sqrt(d_k)
            s = s - s.max(axis=1, keepdims=True)
            a = np.exp(s)
            heads.append(a / a.sum(axis=1, keepdims=True) @ V_g)
        H = np.concatenate(heads, axis=1)
        return H @ f(W_O) + f(b_O)
