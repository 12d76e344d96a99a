# Bug: the band starts at t - window + 1 without max(0, ...): for the first rows the start is negative, Python counts it from the end, the slice K[start:t + 1] comes out empty and its max raises ValueError (zero-size array).
"""Sliding-window attention, one query row at a time over its band of keys."""

import numpy as np


class Solution:
    def sliding_window_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, window, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        X = f(X)
        T, d_model = X.shape
        d_k = d_model // num_heads
        Q = (X @ f(W_Q) + f(b_Q)).reshape(T, num_heads, d_k).transpose(1, 0, 2) / np.sqrt(d_k)
        K = (X @ f(W_K) + f(b_K)).reshape(T, num_heads, d_k).transpose(1, 0, 2)
        V = (X @ f(W_V) + f(b_V)).reshape(T, num_heads, d_k).transpose(1, 0, 2)

        H = np.empty((T, num_heads, d_k))
        for t in range(T):
            start = t - window + 1  # should be max(0, t - window + 1)
            keys, values = K[:, start:t + 1], V[:, start:t + 1]
            s = np.einsum("hd,hud->hu", Q[:, t], keys)
            s -= s.max(axis=1, keepdims=True)
            w = np.exp(s)
            w /= w.sum(axis=1, keepdims=True)
            H[t] = np.einsum("hu,hud->hd", w, values)
        return H.reshape(T, d_model) @ f(W_O) + f(b_O)
