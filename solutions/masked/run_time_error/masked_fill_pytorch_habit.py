# Bug: PyTorch habit: calls scores.masked_fill(mask, -inf), a torch.Tensor method that numpy arrays do not have, so every test raises AttributeError.
"""Masked attention, batched over items and heads, written as one would in PyTorch."""

import numpy as np


class Solution:
    def masked_attention(self, q, k, v, mask, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        q, k, v = (np.asarray(x, dtype=np.float64) for x in (q, k, v))
        B, T_q, d_model = q.shape
        d_k = d_model // num_heads

        def heads(x, W, b):
            P = x @ np.asarray(W, dtype=np.float64) + np.asarray(b, dtype=np.float64)
            return P.reshape(B, x.shape[1], num_heads, d_k).transpose(0, 2, 1, 3)

        Q, K, V = heads(q, W_Q, b_Q), heads(k, W_K, b_K), heads(v, W_V, b_V)
        scores = Q @ K.transpose(0, 1, 3, 2) / np.sqrt(d_k)
        hidden = np.asarray(mask, dtype=bool)[:, None]
        scores = scores.masked_fill(hidden, -np.inf)
        weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
        weights /= weights.sum(axis=-1, keepdims=True)
        H = (weights @ V).transpose(0, 2, 1, 3).reshape(B, T_q, d_model)
        return H @ np.asarray(W_O, dtype=np.float64) + np.asarray(b_O, dtype=np.float64)
