"""Reference solution for masked attention (batched; queries and keys from different sequences).

Vectorised over the batch and the heads with batched matmul on (B, num_heads, T, d_k) stacks.
Hidden keys get the score -inf before the softmax, so that their weights are exactly 0 and can
never win the row maximum. `dtype` is float64 for judging; the test generator re-runs it in
np.longdouble to reject ill-conditioned tests.
"""

from __future__ import annotations

import numpy as np


class Solution:
    dtype = np.float64

    def masked_attention(self, q, k, v, mask, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=self.dtype)  # noqa: E731
        q, k, v = f(q), f(k), f(v)
        B, T_q, d_model = q.shape
        T_k = k.shape[1]
        d_k = d_model // num_heads
        hidden = np.asarray(mask) != 0  # (B, T_q, T_k): 1 hides the key from that query

        def heads(x, W, b):  # (B, T, d_model) -> (B, num_heads, T, d_k)
            T = x.shape[1]
            return (x @ f(W) + f(b)).reshape(B, T, num_heads, d_k).transpose(0, 2, 1, 3)

        Q, K, V = heads(q, W_Q, b_Q), heads(k, W_K, b_K), heads(v, W_V, b_V)
        scores = Q @ K.transpose(0, 1, 3, 2) / np.sqrt(self.dtype(d_k))  # (B, num_heads, T_q, T_k)
        scores = np.where(hidden[:, None], -np.inf, scores)  # the same mask for every head
        scores -= scores.max(axis=-1, keepdims=True)  # finite: every query row keeps a visible key
        weights = np.exp(scores)  # exp(-inf) = 0: a hidden key's weight is exactly 0
        weights /= weights.sum(axis=-1, keepdims=True)
        H = (weights @ V).transpose(0, 2, 1, 3).reshape(B, T_q, d_model)
        return (H @ f(W_O) + f(b_O)).tolist()
