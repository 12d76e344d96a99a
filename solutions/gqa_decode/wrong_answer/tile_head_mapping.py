# WRONG: query head i reads key/value head i % h_k (the K/V heads tiled, as np.tile would lay them out) instead of i // group_size.
"""GQA decoding with a KV cache; the query heads are dealt out to the K/V heads round-robin."""

import numpy as np


class Solution:
    def __init__(self, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        arr = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        d_model = len(W_Q)
        self.d_model, self.h_k, self.group, self.d_k = d_model, h_k, h_q // h_k, d_model // h_q
        self.W = np.concatenate([arr(W_Q), arr(W_K), arr(W_V)], axis=1)
        self.b = np.concatenate([arr(b_Q), arr(b_K), arr(b_V)])
        self.W_O, self.b_O = arr(W_O), arr(b_O)
        self.n = 0
        self.Kt = np.empty((h_k, self.d_k, 32))
        self.V = np.empty((h_k, 32, self.d_k))

    def step(self, x):
        d_model, h_k, group, d_k = self.d_model, self.h_k, self.group, self.d_k
        qkv = np.asarray(x, dtype=np.float64) @ self.W + self.b
        if self.n == self.V.shape[1]:
            self.Kt = np.concatenate([self.Kt, np.zeros_like(self.Kt)], axis=2)
            self.V = np.concatenate([self.V, np.zeros_like(self.V)], axis=1)
        self.Kt[:, :, self.n] = qkv[d_model:d_model + h_k * d_k].reshape(h_k, d_k)
        self.V[:, self.n] = qkv[d_model + h_k * d_k:].reshape(h_k, d_k)
        self.n += 1
        n = self.n

        # Query head i = r * h_k + j goes to K/V head j: rows of q as (group, h_k, d_k), then
        # K/V head first. (GQA wants i = j * group + r, that is q as (h_k, group, d_k).)
        q = qkv[:d_model].reshape(group, h_k, d_k).transpose(1, 0, 2)
        scores = q @ self.Kt[:, :, :n] / np.sqrt(d_k)  # (h_k, group, n)
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        heads = (weights @ self.V[:, :n]).transpose(1, 0, 2).reshape(d_model)  # back to head order
        return heads @ self.W_O + self.b_O
