# ACCEPTED: a Python loop over the d_model / 2 column pairs, each computed for every token at once.
import numpy as np


class Solution:
    def sinusoidal_encoding(self, positions, d_model, base):
        p = np.asarray(positions, dtype=np.float64)
        pe = np.zeros(p.shape + (d_model,))
        for i in range(d_model // 2):
            angle = p / base ** (2 * i / d_model)
            pe[..., 2 * i] = np.sin(angle)
            pe[..., 2 * i + 1] = np.cos(angle)
        return pe
