# Correct but slow: keeps only the inputs and recomputes the K/V projections of every position at every step (quadratic projection work; expected: TLE on the large tests).
"""GQA decoding without a KV cache: every step projects all positions 0..t to keys and values again."""

import numpy as np


class Solution:
    def __init__(self, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        self.W_Q, self.b_Q = np.asarray(W_Q, dtype=np.float64), np.asarray(b_Q, dtype=np.float64)
        self.W_K, self.b_K = np.asarray(W_K, dtype=np.float64), np.asarray(b_K, dtype=np.float64)
        self.W_V, self.b_V = np.asarray(W_V, dtype=np.float64), np.asarray(b_V, dtype=np.float64)
        self.W_O, self.b_O = np.asarray(W_O, dtype=np.float64), np.asarray(b_O, dtype=np.float64)
        self.h_q, self.h_k = h_q, h_k
        self.d_model = self.W_Q.shape[0]
        self.d_k = self.d_model // h_q
        self.X = np.empty((16, self.d_model))  # the inputs seen so far, capacity doubled when full
        self.t = 0

    def step(self, x):
        if self.t == len(self.X):
            self.X = np.concatenate([self.X, np.empty_like(self.X)])
        self.X[self.t] = x
        self.t += 1
        X = self.X[:self.t]
        h_k, d_k, group = self.h_k, self.d_k, self.h_q // self.h_k
        # All positions projected again: (t + 1) * d_model * 2 * h_k * d_k multiply-adds per step.
        K = (X @ self.W_K + self.b_K).reshape(self.t, h_k, d_k).transpose(1, 0, 2)
        V = (X @ self.W_V + self.b_V).reshape(self.t, h_k, d_k).transpose(1, 0, 2)
        q = (np.asarray(x, dtype=np.float64) @ self.W_Q + self.b_Q).reshape(h_k, group, d_k)
        scores = q @ K.swapaxes(1, 2) / np.sqrt(d_k)
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        return (weights @ V).reshape(self.d_model) @ self.W_O + self.b_O
