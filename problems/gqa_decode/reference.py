"""Reference solution for gqa_decode: grouped query attention decoded one position at a time.

The judge constructs `Solution` once per test and calls `step` once per position. The cache holds,
for every key/value head, one key and one value row per position seen so far, so a step costs one
projection of the new position and attention over the cache (linear in t), not a projection of
every earlier position (quadratic over the sequence).

Layout, chosen by measurement: keys are cached transposed, (h_k, d_k, capacity), so the score
product reads each key column with unit stride (2.5x faster than q @ K.T at t = 1500); the
capacity doubles when full, so appending is amortised O(1). `dtype` is float64 for judging; the
test generator re-runs it in np.longdouble (a subclass sets `dtype` before __init__ runs) to reject
ill-conditioned tests.
"""

from __future__ import annotations

import numpy as np


class Solution:
    dtype = np.float64

    def __init__(self, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=self.dtype)  # noqa: E731
        d_model = len(W_Q)
        self.d_k = d_k = d_model // h_q
        self.h_k, self.group, self.d_model = h_k, h_q // h_k, d_model
        # One product per step gives the new position's query, key and value: columns [Q | K | V].
        scale = self.dtype(1) / np.sqrt(self.dtype(d_k))  # 1/sqrt(d_k) folded into the query columns
        self.W = np.concatenate([f(W_Q) * scale, f(W_K), f(W_V)], axis=1)
        self.b = np.concatenate([f(b_Q) * scale, f(b_K), f(b_V)])
        self.W_O, self.b_O = f(W_O), f(b_O)
        self.t = 0
        self.Kt = np.empty((h_k, d_k, 64), dtype=self.dtype)  # Kt[j, :, u]: key head j at position u
        self.V = np.empty((h_k, 64, d_k), dtype=self.dtype)   # V[j, u]: value head j at position u

    def step(self, x):
        t, h_k, d_k, d_model = self.t, self.h_k, self.d_k, self.d_model
        if t == self.V.shape[1]:  # full: double the capacity
            self.Kt = np.concatenate([self.Kt, np.empty_like(self.Kt)], axis=2)
            self.V = np.concatenate([self.V, np.empty_like(self.V)], axis=1)
        qkv = np.asarray(x, dtype=self.dtype) @ self.W + self.b
        width = h_k * d_k
        self.Kt[:, :, t] = qkv[d_model:d_model + width].reshape(h_k, d_k)
        self.V[:, t] = qkv[d_model + width:].reshape(h_k, d_k)
        self.t = t = t + 1  # the new position is in the cache before it attends: u <= t
        # Query heads grouped as (h_k, group, d_k): query head i = j * group + r reads head j.
        scores = qkv[:d_model].reshape(h_k, self.group, d_k) @ self.Kt[:, :, :t]
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        heads = (weights @ self.V[:, :t]).reshape(d_model)  # head i at columns i*d_k .. (i+1)*d_k - 1
        return heads @ self.W_O + self.b_O
