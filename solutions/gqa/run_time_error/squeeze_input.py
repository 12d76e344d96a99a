# Bug: np.squeeze on X drops the position axis when T = 1, so unpacking X.shape raises ValueError (any test with T = 1).
"""Grouped query attention, vectorised; squeezes the input "to drop any stray batch axis"."""

import numpy as np


class Solution:
    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        X = np.squeeze(np.asarray(X, dtype=np.float64))
        T, d_model = X.shape
        d_k = d_model // h_q
        group = h_q // h_k

        def proj(W, b):
            return X @ np.asarray(W, dtype=np.float64) + np.asarray(b, dtype=np.float64)

        Q = proj(W_Q, b_Q).reshape(T, h_q, d_k).transpose(1, 0, 2)
        K = proj(W_K, b_K).reshape(T, h_k, d_k).transpose(1, 0, 2)
        V = proj(W_V, b_V).reshape(T, h_k, d_k).transpose(1, 0, 2)
        # Give every query head its group's key/value head: heads 0..group-1 read head 0, ...
        K = np.repeat(K, group, axis=0)
        V = np.repeat(V, group, axis=0)

        scores = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        H = (weights @ V).transpose(1, 0, 2).reshape(T, d_model)
        return H @ np.asarray(W_O, dtype=np.float64) + np.asarray(b_O, dtype=np.float64)
