# WRONG: returns the outputs of every position so far, a (t+1, d_model) array, instead of this position's d_model numbers.
"""GQA decoding with doubling arrays for the KV cache and for the outputs produced so far."""

import numpy as np


class Solution:
    def __init__(self, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        as_f64 = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        self.W_Q, self.b_Q = as_f64(W_Q), as_f64(b_Q)
        self.W_KV = np.hstack([as_f64(W_K), as_f64(W_V)])
        self.b_KV = np.concatenate([as_f64(b_K), as_f64(b_V)])
        self.W_O, self.b_O = as_f64(W_O), as_f64(b_O)
        self.d_model = len(self.W_Q)
        self.h_k, self.group = h_k, h_q // h_k
        self.d_k = self.d_model // h_q
        self.length = 0
        self.K = np.empty((h_k, 32, self.d_k))
        self.V = np.empty((h_k, 32, self.d_k))
        self.Y = np.empty((32, self.d_model))  # Y[u]: the output of position u

    def step(self, x):
        h_k, d_k, group = self.h_k, self.d_k, self.group
        x = np.asarray(x, dtype=np.float64)
        q = (x @ self.W_Q + self.b_Q) / np.sqrt(d_k)
        kv = x @ self.W_KV + self.b_KV

        t = self.length
        if t == self.K.shape[1]:
            grown_K = np.empty((h_k, 2 * t, d_k))
            grown_V = np.empty((h_k, 2 * t, d_k))
            grown_Y = np.empty((2 * t, self.d_model))
            grown_K[:, :t], grown_V[:, :t], grown_Y[:t] = self.K, self.V, self.Y
            self.K, self.V, self.Y = grown_K, grown_V, grown_Y
        self.K[:, t] = kv[:h_k * d_k].reshape(h_k, d_k)
        self.V[:, t] = kv[h_k * d_k:].reshape(h_k, d_k)
        self.length = n = t + 1

        q_cols = q.reshape(h_k, group, d_k).transpose(0, 2, 1).copy()
        scores = (self.K[:, :n] @ q_cols).transpose(0, 2, 1).copy()  # (h_k, group, n)
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        heads = weights @ self.V[:, :n]
        self.Y[t] = heads.reshape(self.d_model) @ self.W_O + self.b_O
        return self.Y[:n]
