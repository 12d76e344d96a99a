# Correct but slow: keeps only the inputs and at every step recomputes full causal attention for all positions 0..t (every query, a (t+1, t+1) masked score matrix per head), returning the last row (cubic over the sequence; expected: TLE on the large tests).
"""GQA decoding done as whole-sequence causal GQA at every step, keeping only the last output row."""

import numpy as np


class Solution:
    def __init__(self, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        self.W_Q, self.b_Q, self.W_K, self.b_K = f(W_Q), f(b_Q), f(W_K), f(b_K)
        self.W_V, self.b_V, self.W_O, self.b_O = f(W_V), f(b_V), f(W_O), f(b_O)
        self.h_q, self.h_k = h_q, h_k
        self.inputs = []  # the rows of X seen so far

    def _causal_gqa(self, X):
        T, d_model = X.shape
        h_q, h_k = self.h_q, self.h_k
        d_k, group = d_model // h_q, h_q // h_k
        Q = (X @ self.W_Q + self.b_Q).reshape(T, h_q, d_k).transpose(1, 0, 2)  # (h_q, T, d_k)
        K = (X @ self.W_K + self.b_K).reshape(T, h_k, d_k).transpose(1, 0, 2)  # (h_k, T, d_k)
        V = (X @ self.W_V + self.b_V).reshape(T, h_k, d_k).transpose(1, 0, 2)
        K = np.repeat(K, group, axis=0)  # query head i reads K/V head i // group
        V = np.repeat(V, group, axis=0)
        scores = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)  # (h_q, T, T)
        scores[:, np.triu(np.ones((T, T), dtype=bool), k=1)] = -np.inf  # key u > query t hidden
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        H = (weights @ V).transpose(1, 0, 2).reshape(T, d_model)
        return H @ self.W_O + self.b_O

    def step(self, x):
        self.inputs.append(list(x))
        return self._causal_gqa(np.array(self.inputs, dtype=np.float64))[-1]
