# WRONG: the scores are not scaled by 1/sqrt(d_k).
"""GQA decoding with a loop over the key/value heads, scores left unscaled."""

import numpy as np

BLOCK = 256


class Solution:
    def __init__(self, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        W_Q, W_K, W_V = (np.array(W, dtype=np.float64) for W in (W_Q, W_K, W_V))
        b_Q, b_K, b_V = (np.array(b, dtype=np.float64) for b in (b_Q, b_K, b_V))
        self.W_QKV = np.hstack([W_Q, W_K, W_V])
        self.b_QKV = np.concatenate([b_Q, b_K, b_V])
        self.W_O = np.array(W_O, dtype=np.float64)
        self.b_O = np.array(b_O, dtype=np.float64)
        self.h_k = h_k
        self.d_model = W_Q.shape[0]
        self.d_k = self.d_model // h_q
        self.group = h_q // h_k
        self.n = 0
        self.keys = [np.empty((self.d_k, BLOCK)) for _ in range(h_k)]    # keys[j][:, u]
        self.values = [np.empty((BLOCK, self.d_k)) for _ in range(h_k)]  # values[j][u]

    def step(self, x):
        d_model, d_k, group, h_k = self.d_model, self.d_k, self.group, self.h_k
        qkv = np.array(x, dtype=np.float64) @ self.W_QKV + self.b_QKV
        q = qkv[:d_model]
        k = qkv[d_model:d_model + h_k * d_k]
        v = qkv[d_model + h_k * d_k:]

        t = self.n
        if t == self.values[0].shape[0]:
            for j in range(h_k):
                self.keys[j] = np.concatenate([self.keys[j], np.empty((d_k, BLOCK))], axis=1)
                self.values[j] = np.concatenate([self.values[j], np.empty((BLOCK, d_k))])
        for j in range(h_k):
            self.keys[j][:, t] = k[j * d_k:(j + 1) * d_k]
            self.values[j][t] = v[j * d_k:(j + 1) * d_k]
        self.n = n = t + 1

        heads = np.empty(d_model)
        width = group * d_k
        for j in range(h_k):
            q_group = q[j * width:(j + 1) * width].reshape(group, d_k)
            scores = q_group @ self.keys[j][:, :n]
            scores -= scores.max(axis=1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(axis=1, keepdims=True)
            heads[j * width:(j + 1) * width] = (scores @ self.values[j][:n]).ravel()
        return heads @ self.W_O + self.b_O
