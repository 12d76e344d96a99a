# Bug: the (T, num_heads, d_k) projections are squeezed before transposing, so with T = 1 (or num_heads = 1, or d_k = 1) transpose(1, 0, 2) raises ValueError.
"""Causal self-attention, batched over heads with matmul."""

import numpy as np


class Solution:
    def causal_self_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        X = np.array(X, dtype=np.float64)
        T, d_model = X.shape
        d_k = d_model // num_heads

        def heads(W, b):
            P = X @ np.array(W, dtype=np.float64) + np.array(b, dtype=np.float64)
            return P.reshape(T, num_heads, d_k).squeeze().transpose(1, 0, 2)

        Q, K, V = heads(W_Q, b_Q), heads(W_K, b_K), heads(W_V, b_V)
        scores = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)
        scores[:, np.triu(np.ones((T, T), dtype=bool), k=1)] = -np.inf
        scores -= scores.max(axis=2, keepdims=True)
        A = np.exp(scores)
        A /= A.sum(axis=2, keepdims=True)
        H = (A @ V).transpose(1, 0, 2).reshape(T, d_model)
        return (H @ np.array(W_O, dtype=np.float64) + np.array(b_O, dtype=np.float64)).tolist()
