# WRONG: the softmax normalises over the query heads axis (axis 0 of the (h_q, t+1) scores) instead of over the t+1 cached positions.
"""GQA decoding with a KV cache; scores gathered as one (h_q, t+1) matrix, one row per query head."""

import numpy as np


class Solution:
    def __init__(self, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        self.W_Q, self.b_Q = f(W_Q), f(b_Q)
        self.W_K, self.b_K = f(W_K), f(b_K)
        self.W_V, self.b_V = f(W_V), f(b_V)
        self.W_O, self.b_O = f(W_O), f(b_O)
        self.d_model = len(W_Q)
        self.h_q, self.h_k, self.group = h_q, h_k, h_q // h_k
        self.d_k = self.d_model // h_q
        self.t = 0
        self.Kt = np.empty((h_k, self.d_k, 64))
        self.V = np.empty((h_k, 64, self.d_k))

    def step(self, x):
        h_q, h_k, d_k, t = self.h_q, self.h_k, self.d_k, self.t
        x = np.asarray(x, dtype=np.float64)
        if t == self.V.shape[1]:
            self.Kt = np.concatenate([self.Kt, np.empty_like(self.Kt)], axis=2)
            self.V = np.concatenate([self.V, np.empty_like(self.V)], axis=1)
        self.Kt[:, :, t] = (x @ self.W_K + self.b_K).reshape(h_k, d_k)
        self.V[:, t] = (x @ self.W_V + self.b_V).reshape(h_k, d_k)
        self.t = n = t + 1

        q = (x @ self.W_Q + self.b_Q).reshape(h_k, self.group, d_k)
        scores = (q @ self.Kt[:, :, :n]).reshape(h_q, n) / np.sqrt(d_k)  # row i: query head i
        scores -= scores.max(axis=0, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=0, keepdims=True)
        heads = weights.reshape(h_k, self.group, n) @ self.V[:, :n]
        return heads.reshape(self.d_model) @ self.W_O + self.b_O
