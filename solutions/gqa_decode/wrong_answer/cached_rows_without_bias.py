# WRONG: the cache stores x @ W_K and x @ W_V without b_K and b_V; the current position's key and value (taken fresh, not from the cache) include them, so only the earlier rows lack the biases.
"""GQA decoding: earlier positions from the cache, the current position from its fresh projection."""

import numpy as np


class Solution:
    def __init__(self, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        self.W_Q = np.asarray(W_Q, dtype=np.float64)
        self.b_Q = np.asarray(b_Q, dtype=np.float64)
        self.W_K = np.asarray(W_K, dtype=np.float64)
        self.b_K = np.asarray(b_K, dtype=np.float64)
        self.W_V = np.asarray(W_V, dtype=np.float64)
        self.b_V = np.asarray(b_V, dtype=np.float64)
        self.W_O = np.asarray(W_O, dtype=np.float64)
        self.b_O = np.asarray(b_O, dtype=np.float64)
        self.d_model = self.W_Q.shape[0]
        self.h_k, self.group = h_k, h_q // h_k
        self.d_k = self.d_model // h_q
        self.t = 0
        self.past_Kt = np.empty((h_k, self.d_k, 64))  # positions 0..t-1, keys transposed
        self.past_V = np.empty((h_k, 64, self.d_k))

    def step(self, x):
        h_k, d_k, t = self.h_k, self.d_k, self.t
        x = np.asarray(x, dtype=np.float64)
        q = (x @ self.W_Q + self.b_Q).reshape(h_k, self.group, d_k) / np.sqrt(d_k)
        k_proj = (x @ self.W_K).reshape(h_k, d_k)
        v_proj = (x @ self.W_V).reshape(h_k, d_k)
        k = k_proj + self.b_K.reshape(h_k, d_k)
        v = v_proj + self.b_V.reshape(h_k, d_k)

        # Scores against the past positions and against this one, one softmax over both.
        past = q @ self.past_Kt[:, :, :t]                     # (h_k, group, t)
        now = np.matmul(q, k[:, :, None])                     # (h_k, group, 1)
        scores = np.concatenate([past, now], axis=2)
        scores -= scores.max(axis=2, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=2, keepdims=True)
        heads = weights[:, :, :t] @ self.past_V[:, :t] + weights[:, :, t:] * v[:, None, :]

        if t == self.past_V.shape[1]:
            self.past_Kt = np.concatenate([self.past_Kt, np.empty_like(self.past_Kt)], axis=2)
            self.past_V = np.concatenate([self.past_V, np.empty_like(self.past_V)], axis=1)
        self.past_Kt[:, :, t] = k_proj
        self.past_V[:, t] = v_proj
        self.t = t + 1
        return heads.reshape(self.d_model) @ self.W_O + self.b_O
