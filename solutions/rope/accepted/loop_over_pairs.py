# ACCEPTED: a loop over the d/2 frequency pairs, each turned for every head and token at once.
import math

import numpy as np


class Solution:
    def rotary_embedding(self, q, k, positions, base):
        out = np.array([q, k], dtype=np.float64)
        src = out.copy()
        d = out.shape[-1]
        half = d // 2
        pos = np.asarray(positions, dtype=np.float64)
        for i in range(half):
            angle = pos * math.pow(base, -2.0 * i / d)  # (T,)
            c, s = np.cos(angle), np.sin(angle)
            a, b = src[..., i], src[..., i + half]
            out[..., i] = a * c - b * s
            out[..., i + half] = b * c + a * s
        return out
