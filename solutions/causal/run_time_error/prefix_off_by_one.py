# Bug: row t takes the keys K[:t] instead of K[:t + 1] (off by one), so row 0 gets an empty slice and its max raises ValueError (zero-size array).
"""Causal self-attention, one query row at a time over its prefix of keys."""

import numpy as np


class Solution:
    def causal_self_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        X = f(X)
        T, d_model = X.shape
        d_k = d_model // num_heads
        Q = (X @ f(W_Q) + f(b_Q)).reshape(T, num_heads, d_k).transpose(1, 0, 2) / np.sqrt(d_k)
        K = (X @ f(W_K) + f(b_K)).reshape(T, num_heads, d_k).transpose(1, 0, 2)
        V = (X @ f(W_V) + f(b_V)).reshape(T, num_heads, d_k).transpose(1, 0, 2)

        H = np.empty((T, num_heads, d_k))
        for t in range(T):
            keys, values = K[:, :t], V[:, :t]  # should be :t + 1, position t sees itself
            s = np.einsum("hd,hud->hu", Q[:, t], keys)
            s -= s.max(axis=1, keepdims=True)
            w = np.exp(s)
            w /= w.sum(axis=1, keepdims=True)
            H[t] = np.einsum("hu,hud->hd", w, values)
        return H.reshape(T, d_model) @ f(W_O) + f(b_O)
