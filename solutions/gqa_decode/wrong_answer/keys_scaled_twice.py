# WRONG: scaled twice: the queries are divided by sqrt(d_k) and the keys are cached divided by sqrt(d_k) as well, so the scores are q.k / d_k.
"""GQA decoding with scaled queries and scaled cached keys."""

import numpy as np


class Solution:
    def __init__(self, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=float)  # noqa: E731
        d_model = len(W_Q)
        self.h_k, self.group, self.d_k, self.d_model = h_k, h_q // h_k, d_model // h_q, d_model
        self.scale = 1.0 / np.sqrt(self.d_k)
        self.W_Q, self.b_Q = f(W_Q) * self.scale, f(b_Q) * self.scale  # queries come out scaled
        self.W_KV = np.concatenate([f(W_K), f(W_V)], axis=1)
        self.b_KV = np.concatenate([f(b_K), f(b_V)])
        self.W_O, self.b_O = f(W_O), f(b_O)
        self.size = 0
        self.Kt = np.empty((h_k, self.d_k, 48))
        self.V = np.empty((h_k, 48, self.d_k))

    def step(self, x):
        h_k, d_k = self.h_k, self.d_k
        x = np.asarray(x, dtype=float)
        q = x @ self.W_Q + self.b_Q
        kv = x @ self.W_KV + self.b_KV

        t = self.size
        if t == self.V.shape[1]:
            more = self.V.shape[1] // 2
            self.Kt = np.concatenate([self.Kt, np.empty((h_k, d_k, more))], axis=2)
            self.V = np.concatenate([self.V, np.empty((h_k, more, d_k))], axis=1)
        self.Kt[:, :, t] = kv[:h_k * d_k].reshape(h_k, d_k) * self.scale
        self.V[:, t] = kv[h_k * d_k:].reshape(h_k, d_k)
        self.size = n = t + 1

        scores = q.reshape(h_k, self.group, d_k) @ self.Kt[:, :, :n]
        scores -= scores.max(axis=2, keepdims=True)
        e = np.exp(scores)
        heads = e @ self.V[:, :n]
        heads /= e.sum(axis=2, keepdims=True)
        return heads.ravel() @ self.W_O + self.b_O
