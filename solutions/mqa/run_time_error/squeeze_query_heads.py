# Bug: the (T, num_heads, d_k) queries are squeezed, so with num_heads = 1 (or T = 1, or d_k = 1) the einsum over 3 subscripts gets a 2-D operand and raises ValueError.
"""Multi-query attention with einsum; all query heads read the single key/value head."""

import numpy as np


class Solution:
    def multi_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        X = f(X)
        T, d_model = X.shape
        d_k = d_model // num_heads

        Q = np.squeeze((X @ f(W_Q) + f(b_Q)).reshape(T, num_heads, d_k))
        K = X @ f(W_K) + f(b_K)
        V = X @ f(W_V) + f(b_V)

        scores = np.einsum("thd,sd->hts", Q, K) / np.sqrt(d_k)
        scores -= scores.max(axis=-1, keepdims=True)
        A = np.exp(scores)
        A /= A.sum(axis=-1, keepdims=True)
        H = np.einsum("hts,sd->thd", A, V).reshape(T, d_model)
        return H @ f(W_O) + f(b_O)
