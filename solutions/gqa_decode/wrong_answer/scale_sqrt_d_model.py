# WRONG: the scores are divided by sqrt(d_model) instead of sqrt(d_k).
"""GQA decoding with a doubling KV cache (keys transposed), scaled by the model width."""

import numpy as np


class Solution:
    def __init__(self, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        d_model = len(W_Q)
        self.d_model, self.h_k, self.group, self.d_k = d_model, h_k, h_q // h_k, d_model // h_q
        self.W = np.concatenate([f(W_Q), f(W_K), f(W_V)], axis=1)
        self.b = np.concatenate([f(b_Q), f(b_K), f(b_V)])
        self.W_O, self.b_O = f(W_O), f(b_O)
        self.t = 0
        self.Kt = np.empty((h_k, self.d_k, 64))
        self.V = np.empty((h_k, 64, self.d_k))

    def step(self, x):
        t, h_k, d_k, d_model = self.t, self.h_k, self.d_k, self.d_model
        if t == self.V.shape[1]:
            self.Kt = np.concatenate([self.Kt, np.empty_like(self.Kt)], axis=2)
            self.V = np.concatenate([self.V, np.empty_like(self.V)], axis=1)
        qkv = np.asarray(x, dtype=np.float64) @ self.W + self.b
        w = h_k * d_k
        self.Kt[:, :, t] = qkv[d_model:d_model + w].reshape(h_k, d_k)
        self.V[:, t] = qkv[d_model + w:].reshape(h_k, d_k)
        self.t = n = t + 1
        scores = qkv[:d_model].reshape(h_k, self.group, d_k) @ self.Kt[:, :, :n]
        scores /= np.sqrt(d_model)
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        heads = (weights @ self.V[:, :n]).reshape(d_model)
        return heads @ self.W_O + self.b_O
