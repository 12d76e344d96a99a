# Correct but over the memory limit: one head at a time, but that head's full T x T scores (128 MiB at T = 4096, twice the limit) (expected: MLE on the largest test).
"""Causal attention head by head, each with its whole score matrix."""

import numpy as np


class Solution:
    def flash_attention(self, Q, K, V):
        out = []
        for q, k, v in zip(Q, K, V):
            q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
            s = q @ k.T / np.sqrt(q.shape[1])
            s = np.where(np.tril(np.ones_like(s)) == 1, s, -np.inf)
            p = np.exp(s - s.max(axis=1, keepdims=True))
            out.append((p / p.sum(axis=1, keepdims=True)) @ v)
        return out
