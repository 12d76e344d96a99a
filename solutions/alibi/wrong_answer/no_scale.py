# WRONG: the dot products not scaled by 1/sqrt(d).
import math

import numpy as np


def slopes(n):
    p = 2 ** int(math.floor(math.log2(n)))
    first = [2.0 ** (-8.0 * j / p) for j in range(1, p + 1)]
    extra = [2.0 ** (-4.0 * (2 * r + 1) / p) for r in range(n - p)]
    return np.array(first + extra)


class Solution:
    def alibi_attention(self, Q, K, V):
        Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
        h, T, d = Q.shape
        t = np.arange(T)
        distance = (t[:, None] - t[None, :]).astype(np.float64)
        m = slopes(h)[:, None, None]
        scores = Q @ K.transpose(0, 2, 1) - m * distance
        scores[:, distance < 0] = -np.inf
        scores -= scores.max(axis=-1, keepdims=True)
        w = np.exp(scores)
        return (w / w.sum(axis=-1, keepdims=True)) @ V
