"""Reference solution for multi-query attention.

Every query head reads the one shared key/value head, so the heads stack into one tall matrix.
`dtype` is float64 for judging; the test generator re-runs it in np.longdouble to reject
ill-conditioned tests.
"""

from __future__ import annotations

import numpy as np


class Solution:
    dtype = np.float64

    def multi_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=self.dtype)  # noqa: E731
        X = f(X)
        T, d_model = X.shape
        d_k = d_model // num_heads
        Q = (X @ f(W_Q) + f(b_Q)).reshape(T, num_heads, d_k)
        K = X @ f(W_K) + f(b_K)  # (T, d_k), shared by all heads
        V = X @ f(W_V) + f(b_V)
        scores = Q @ K.T / np.sqrt(self.dtype(d_k))  # (T, num_heads, T)
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        H = (weights @ V).reshape(T, d_model)
        return (H @ f(W_O) + f(b_O)).tolist()
