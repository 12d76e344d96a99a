"""Reference solution for P4497, grouped query attention.

Vectorised: one batched matmul covers every query head. `dtype` is float64 for judging; the test
generator re-runs it in np.longdouble to reject ill-conditioned tests.
"""

from __future__ import annotations

import numpy as np


class Solution:
    dtype = np.float64

    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=self.dtype)  # noqa: E731
        X = f(X)
        T, d_model = X.shape
        d_k = d_model // h_q
        group = h_q // h_k
        # Projections, split into heads: Q (h_q, T, d_k); K, V (h_k, T, d_k).
        Q = (X @ f(W_Q) + f(b_Q)).reshape(T, h_q, d_k).transpose(1, 0, 2)
        K = (X @ f(W_K) + f(b_K)).reshape(T, h_k, d_k).transpose(1, 0, 2)
        V = (X @ f(W_V) + f(b_V)).reshape(T, h_k, d_k).transpose(1, 0, 2)
        # Query head i reads key/value head i // group: group the query heads as (h_k, group).
        Q = Q.reshape(h_k, group, T, d_k)
        scores = Q @ K[:, None].swapaxes(-1, -2) / np.sqrt(self.dtype(d_k))
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        heads = (weights @ V[:, None]).reshape(h_q, T, d_k)
        H = heads.transpose(1, 0, 2).reshape(T, d_model)
        return (H @ f(W_O) + f(b_O)).tolist()
