"""Reference solution for multi-head attention.

Vectorised over heads with einsum. `dtype` is float64 for judging; the test generator re-runs it
in np.longdouble to reject ill-conditioned tests.
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

        def heads(W, b):
            return (X @ f(W) + f(b)).reshape(T, num_heads, d_k)

        Q, K, V = heads(W_Q, b_Q), heads(W_K, b_K), heads(W_V, b_V)
        scores = np.einsum("thd,shd->hts", Q, K) / np.sqrt(self.dtype(d_k))
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        H = np.einsum("hts,shd->thd", weights, V).reshape(T, d_model)
        return (H @ f(W_O) + f(b_O)).tolist()
