"""Reference solution for multi-head attention.

Vectorised over heads with batched matmul. `dtype` is float64 for judging; the test generator
re-runs it in np.longdouble to reject ill-conditioned tests.
"""

from __future__ import annotations

import numpy as np


class Solution:
    dtype = np.float64

    def multi_head_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=self.dtype)  # noqa: E731
        X = f(X)
        T, d_model = X.shape
        d_k = d_model // num_heads

        def heads(W, b):  # (num_heads, T, d_k)
            return (X @ f(W) + f(b)).reshape(T, num_heads, d_k).transpose(1, 0, 2)

        Q, K, V = heads(W_Q, b_Q), heads(W_K, b_K), heads(W_V, b_V)
        # Batched matmul, not einsum: einsum does not call BLAS and took ~70 ms at T = 512.
        scores = Q @ K.transpose(0, 2, 1) / np.sqrt(self.dtype(d_k))
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        H = (weights @ V).transpose(1, 0, 2).reshape(T, d_model)
        return (H @ f(W_O) + f(b_O)).tolist()
