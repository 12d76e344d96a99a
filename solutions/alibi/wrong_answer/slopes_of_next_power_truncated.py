# WRONG: slopes of the next power of two 2p cut to n heads (get_slopes_power_of_2(2p)[:n]) instead of the closest power below plus interleaved extras.
import math

import numpy as np


def slopes(n):
    q = 1
    while q < n:
        q *= 2
    return np.array([2.0 ** (-8.0 * j / q) for j in range(1, q + 1)][:n])


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
