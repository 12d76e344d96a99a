# WRONG: attends over the cache BEFORE appending the new position, so step t sees positions 0..t-1 only (never itself); at step 0 the cache is empty and the heads are zeros.
"""GQA decoding with a doubling KV cache, attending first and caching the new position after."""

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
        self.Kt = np.empty((h_k, self.d_k, 64))  # Kt[j, :, u]: key head j at position u
        self.V = np.empty((h_k, 64, self.d_k))   # V[j, u]: value head j at position u

    def step(self, x):
        h_k, d_k, t = self.h_k, self.d_k, self.t
        x = np.asarray(x, dtype=np.float64)
        q = (x @ self.W_Q + self.b_Q).reshape(h_k, self.group, d_k)
        k = (x @ self.W_K + self.b_K).reshape(h_k, d_k)
        v = (x @ self.W_V + self.b_V).reshape(h_k, d_k)

        if t == 0:
            heads = np.zeros(self.d_model)  # nothing cached yet to attend to
        else:
            scores = q @ self.Kt[:, :, :t] / np.sqrt(d_k)
            scores -= scores.max(axis=-1, keepdims=True)
            weights = np.exp(scores)
            weights /= weights.sum(axis=-1, keepdims=True)
            heads = (weights @ self.V[:, :t]).reshape(self.d_model)

        if t == self.V.shape[1]:
            self.Kt = np.concatenate([self.Kt, np.empty_like(self.Kt)], axis=2)
            self.V = np.concatenate([self.V, np.empty_like(self.V)], axis=1)
        self.Kt[:, :, t] = k
        self.V[:, t] = v
        self.t = t + 1
        return heads @ self.W_O + self.b_O
