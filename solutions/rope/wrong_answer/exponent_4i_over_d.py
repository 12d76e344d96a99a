# WRONG: frequencies base^(-4i/d): arange(0, d, 2) divided by d/2, the factor 2 counted twice.
import numpy as np


class Solution:
    def rotary_embedding(self, q, k, positions, base):
        q = np.asarray(q, dtype=np.float64)
        k = np.asarray(k, dtype=np.float64)
        d = q.shape[-1]
        inv_freq = 1.0 / base ** (np.arange(0, d, 2, dtype=np.float64) / (d // 2))
        angles = np.outer(np.asarray(positions, dtype=np.float64), inv_freq)
        table = np.concatenate([angles, angles], axis=-1)
        cos, sin = np.cos(table), np.sin(table)

        def rotate_half(x):
            return np.concatenate([-x[..., d // 2:], x[..., : d // 2]], axis=-1)

        return np.stack([q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin])
