# Bug: treats x as a NumPy array and calls x.reshape(1, -1) on it, but x is a plain Python list: AttributeError at step 0 of every test.
"""GQA decoding with a doubling KV cache; the new position is handled as a (1, d_model) row."""

import numpy as np


class Solution:
    def __init__(self, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        self.W_Q, self.b_Q = f(W_Q), f(b_Q)
        self.W_K, self.b_K = f(W_K), f(b_K)
        self.W_V, self.b_V = f(W_V), f(b_V)
        self.W_O, self.b_O = f(W_O), f(b_O)
        self.d_model = len(W_Q)
        self.h_k, self.group = h_k, h_q // h_k
        self.d_k = self.d_model // h_q
        self.t = 0
        self.Kt = np.empty((h_k, self.d_k, 64))
        self.V = np.empty((h_k, 64, self.d_k))

    def step(self, x):
        h_k, d_k, t = self.h_k, self.d_k, self.t
        row = x.reshape(1, -1)  # (1, d_model)
        q = (row @ self.W_Q + self.b_Q).reshape(h_k, self.group, d_k)
        k = (row @ self.W_K + self.b_K).reshape(h_k, d_k)
        v = (row @ self.W_V + self.b_V).reshape(h_k, d_k)
        if t == self.V.shape[1]:
            self.Kt = np.concatenate([self.Kt, np.empty_like(self.Kt)], axis=2)
            self.V = np.concatenate([self.V, np.empty_like(self.V)], axis=1)
        self.Kt[:, :, t] = k
        self.V[:, t] = v
        self.t = n = t + 1
        scores = q @ self.Kt[:, :, :n] / np.sqrt(d_k)
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        heads = (weights @ self.V[:, :n]).reshape(self.d_model)
        return (heads @ self.W_O + self.b_O).ravel()
