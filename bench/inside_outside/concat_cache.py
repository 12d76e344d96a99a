"""gqa_decode with the KV cache grown by np.concatenate at every step: a copy of the whole cache per step.

The cache is kept as (h_k, t, d_k) arrays and each step concatenates the new position's key and
value onto them, as a naive decoder does. At gqa_decode's 020-large (T = 1280, h_k = 2, d_k = 64)
each copy is up to 1.3 MB, so every step allocates and frees two arrays past glibc's default
128 KiB mmap threshold: a fresh process maps and faults them in anew at every step.
"""

import numpy as np


class Solution:
    def __init__(self, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        self.h_k, self.group = h_k, h_q // h_k
        self.d_model = d_model = len(W_Q)
        self.d_k = d_k = d_model // h_q
        self.W_Q, self.b_Q = f(W_Q) / np.sqrt(d_k), f(b_Q) / np.sqrt(d_k)
        self.W_K, self.b_K, self.W_V, self.b_V = f(W_K), f(b_K), f(W_V), f(b_V)
        self.W_O, self.b_O = f(W_O), f(b_O)
        self.K = np.empty((h_k, 0, d_k))  # K[j, u]: key head j at position u
        self.V = np.empty((h_k, 0, d_k))

    def step(self, x):
        x = np.asarray(x, dtype=np.float64)
        h_k, d_k = self.h_k, self.d_k
        q = (x @ self.W_Q + self.b_Q).reshape(h_k, self.group, d_k)
        k = (x @ self.W_K + self.b_K).reshape(h_k, 1, d_k)
        v = (x @ self.W_V + self.b_V).reshape(h_k, 1, d_k)
        self.K = np.concatenate([self.K, k], axis=1)
        self.V = np.concatenate([self.V, v], axis=1)
        scores = q @ self.K.transpose(0, 2, 1)  # (h_k, group, t)
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        return (weights @ self.V).reshape(self.d_model) @ self.W_O + self.b_O
