# WRONG: slopes 2^(-8(i+1)/n) for every head count: right for powers of two only (the get_alibi_slope of hkk0405/EasyLM dev.py; the paper takes the closest power of two).
import math

import numpy as np


def slopes(n):
    return np.array([2.0 ** (-8.0 * (i + 1) / n) for i in range(n)])


class Solution:
    def alibi_attention(self, Q, K, V):
        Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
        h, T, d = Q.shape
        t = np.arange(T)
        distance = (t[:, None] - t[None, :]).astype(np.float64)
        m = slopes(h)[:, None, None]
        scores = Q @ K.transpose(0, 2, 1) / math.sqrt(d) - m * distance
        scores[:, distance < 0] = -np.inf
        scores -= scores.max(axis=-1, keepdims=True)
        w = np.exp(scores)
        return (w / w.sum(axis=-1, keepdims=True)) @ V
