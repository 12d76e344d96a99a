# Bug: the group size is computed as h_q / h_k (true division), a float, and reshape(h_k, group, d_k) raises TypeError at step 0 of every test.
"""GQA decoding with a KV cache of preallocated arrays that double when full."""

import numpy as np


class Solution:
    def __init__(self, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        self.W_Q = np.asarray(W_Q, dtype=np.float64)
        self.b_Q = np.asarray(b_Q, dtype=np.float64)
        self.W_KV = np.hstack([np.asarray(W_K, dtype=np.float64), np.asarray(W_V, dtype=np.float64)])
        self.b_KV = np.concatenate([np.asarray(b_K, dtype=np.float64), np.asarray(b_V, dtype=np.float64)])
        self.W_O = np.asarray(W_O, dtype=np.float64)
        self.b_O = np.asarray(b_O, dtype=np.float64)
        self.d_model = self.W_Q.shape[0]
        self.d_k = self.d_model // h_q
        self.h_k = h_k
        self.group = h_q / h_k  # query heads per key/value head
        self.n = 0
        self.Kt = np.empty((h_k, self.d_k, 64))
        self.V = np.empty((h_k, 64, self.d_k))

    def step(self, x):
        h_k, d_k = self.h_k, self.d_k
        x = np.asarray(x, dtype=np.float64)
        q = (x @ self.W_Q + self.b_Q) / np.sqrt(d_k)
        kv = x @ self.W_KV + self.b_KV
        t = self.n
        if t == self.V.shape[1]:
            self.Kt = np.concatenate([self.Kt, np.empty_like(self.Kt)], axis=2)
            self.V = np.concatenate([self.V, np.empty_like(self.V)], axis=1)
        self.Kt[:, :, t] = kv[:h_k * d_k].reshape(h_k, d_k)
        self.V[:, t] = kv[h_k * d_k:].reshape(h_k, d_k)
        self.n = n = t + 1
        scores = q.reshape(h_k, self.group, d_k) @ self.Kt[:, :, :n]
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        heads = weights @ self.V[:, :n]
        return heads.reshape(self.d_model) @ self.W_O + self.b_O
