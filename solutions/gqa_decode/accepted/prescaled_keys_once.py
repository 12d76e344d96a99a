# Accepted: each key is multiplied by 1/sqrt(d_k) once, when it is cached (the queries are left unscaled), keys cached transposed; the softmax is normalised after the weighted sum.
"""GQA decoding with the score scale folded into the cached keys.

q . (k / sqrt(d_k)) = (q . k) / sqrt(d_k), so every key is scaled once as it enters the cache and
the scores need no further scaling. Keys are cached transposed, Kt[j, :, u] being key head j at
position u, so that the scores of a whole group of query heads are one (group, d_k) @ (d_k, t+1)
product; values are V[j, u]. The cache grows by half its size when it fills up.

The exponentials are summed and the division applied to the (group, d_k) head outputs rather than
to the (group, t+1) weights: the same numbers, divided in fewer places.
"""

import numpy as np


class Solution:
    def __init__(self, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        self.W_Q = np.asarray(W_Q, dtype=float)
        self.b_Q = np.asarray(b_Q, dtype=float)
        self.W_KV = np.concatenate([np.asarray(W_K, dtype=float), np.asarray(W_V, dtype=float)], axis=1)
        self.b_KV = np.concatenate([np.asarray(b_K, dtype=float), np.asarray(b_V, dtype=float)])
        self.W_O = np.asarray(W_O, dtype=float)
        self.b_O = np.asarray(b_O, dtype=float)
        d_model = self.W_Q.shape[0]
        self.h_k, self.group, self.d_k = h_k, h_q // h_k, d_model // h_q
        self.key_scale = 1.0 / np.sqrt(self.d_k)
        self.size = 0
        self.Kt = np.empty((h_k, self.d_k, 48))
        self.V = np.empty((h_k, 48, self.d_k))

    def step(self, x):
        h_k, d_k = self.h_k, self.d_k
        x = np.asarray(x, dtype=float)
        q = x @ self.W_Q + self.b_Q
        kv = x @ self.W_KV + self.b_KV

        t = self.size
        capacity = self.V.shape[1]
        if t == capacity:
            more = capacity // 2
            self.Kt = np.concatenate([self.Kt, np.empty((h_k, d_k, more))], axis=2)
            self.V = np.concatenate([self.V, np.empty((h_k, more, d_k))], axis=1)
        self.Kt[:, :, t] = kv[:h_k * d_k].reshape(h_k, d_k) * self.key_scale  # the only scaling
        self.V[:, t] = kv[h_k * d_k:].reshape(h_k, d_k)
        self.size = n = t + 1

        scores = q.reshape(h_k, self.group, d_k) @ self.Kt[:, :, :n]  # (h_k, group, n)
        scores -= scores.max(axis=2, keepdims=True)
        e = np.exp(scores)
        heads = e @ self.V[:, :n]  # (h_k, group, d_k): unnormalised, query head j*group + r at [j, r]
        heads /= e.sum(axis=2, keepdims=True)
        return heads.ravel() @ self.W_O + self.b_O
