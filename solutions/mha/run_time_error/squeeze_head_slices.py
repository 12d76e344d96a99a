# Bug: each head's Q/K/V slice is squeezed, so with d_k = 1 (or T = 1) the scores collapse to a scalar and max(axis=-1, keepdims=True) raises AxisError.
"""Multi-head attention, one head at a time, on squeezed column slices."""

import numpy as np


class Solution:
    def multi_head_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        X = f(X)
        T, d_model = X.shape
        d_k = d_model // num_heads

        Q = X @ f(W_Q) + f(b_Q)
        K = X @ f(W_K) + f(b_K)
        V = X @ f(W_V) + f(b_V)

        heads = []
        for h in range(num_heads):
            cols = slice(h * d_k, (h + 1) * d_k)
            q, k, v = Q[:, cols].squeeze(), K[:, cols].squeeze(), V[:, cols].squeeze()
            scores = q @ k.T / np.sqrt(d_k)
            scores = scores - scores.max(axis=-1, keepdims=True)
            w = np.exp(scores)
            w = w / w.sum(axis=-1, keepdims=True)
            heads.append(w @ v)
        return np.hstack(heads) @ f(W_O) + f(b_O)
