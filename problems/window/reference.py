"""Reference solution for sliding-window attention.

Multi-head attention vectorised over heads with batched matmul, where every key outside the band
t - window < u <= t (a later key, or one window or more positions back) gets the score -inf before
the softmax, so that its weight is exactly 0. `dtype` is float64 for judging; the test generator
re-runs it in np.longdouble to reject ill-conditioned tests (np.exp of -inf is 0 in both, and in
the portable long double exp).
"""

from __future__ import annotations

import numpy as np


class Solution:
    dtype = np.float64

    def sliding_window_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, window, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=self.dtype)  # noqa: E731
        X = f(X)
        T, d_model = X.shape
        d_k = d_model // num_heads

        def heads(W, b):  # (num_heads, T, d_k)
            return (X @ f(W) + f(b)).reshape(T, num_heads, d_k).transpose(1, 0, 2)

        Q, K, V = heads(W_Q, b_Q), heads(W_K, b_K), heads(W_V, b_V)
        scores = Q @ K.transpose(0, 2, 1) / np.sqrt(self.dtype(d_k))  # (num_heads, T, T)
        t, u = np.arange(T)[:, None], np.arange(T)[None, :]
        hidden = (u > t) | (u <= t - window)  # [t, u] is True outside the band
        scores[:, hidden] = -np.inf
        # Key u = t is always in the band, so every row maximum is finite and exp(-inf - m) = 0.
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        H = (weights @ V).transpose(1, 0, 2).reshape(T, d_model)
        return (H @ f(W_O) + f(b_O)).tolist()
