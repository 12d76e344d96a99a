"""gqa_decode with llama's repeat_kv: the cache repeated per query head (np.repeat) at every step.

The cache itself is preallocated and doubled when full, as the reference keeps it, so appending
costs nothing; but each step expands it to one key and one value head per query head, as
Hugging Face's llama does (`repeat_kv`), before a plain multi-head product. At gqa_decode's
020-large (T = 1280, h_q = 4, h_k = 2, d_k = 64) each repeated array is up to 2.6 MB, two per step,
allocated and freed again.
"""

import numpy as np


class Solution:
    def __init__(self, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        self.h_q, self.h_k, self.group = h_q, h_k, h_q // h_k
        self.d_model = d_model = len(W_Q)
        self.d_k = d_k = d_model // h_q
        self.W_Q, self.b_Q = f(W_Q) / np.sqrt(d_k), f(b_Q) / np.sqrt(d_k)
        self.W_K, self.b_K, self.W_V, self.b_V = f(W_K), f(b_K), f(W_V), f(b_V)
        self.W_O, self.b_O = f(W_O), f(b_O)
        self.t = 0
        self.K = np.empty((h_k, 64, d_k))  # K[j, u]: key head j at position u; capacity doubles
        self.V = np.empty((h_k, 64, d_k))

    def step(self, x):
        x = np.asarray(x, dtype=np.float64)
        t, h_k, d_k = self.t, self.h_k, self.d_k
        if t == self.K.shape[1]:
            self.K = np.concatenate([self.K, np.empty_like(self.K)], axis=1)
            self.V = np.concatenate([self.V, np.empty_like(self.V)], axis=1)
        self.K[:, t] = (x @ self.W_K + self.b_K).reshape(h_k, d_k)
        self.V[:, t] = (x @ self.W_V + self.b_V).reshape(h_k, d_k)
        self.t = t = t + 1
        keys = np.repeat(self.K[:, :t], self.group, axis=0)  # (h_q, t, d_k): query head i reads head i // group
        values = np.repeat(self.V[:, :t], self.group, axis=0)
        q = (x @ self.W_Q + self.b_Q).reshape(self.h_q, 1, d_k)
        scores = q @ keys.transpose(0, 2, 1)  # (h_q, 1, t)
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        return (weights @ values).reshape(self.d_model) @ self.W_O + self.b_O
