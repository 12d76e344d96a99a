# WRONG: frequencies base^(-i/d) with i the pair index (arange(0, d/2) / d): the factor 2 of 2i/d dropped.
import numpy as np


class Solution:
    def sinusoidal_encoding(self, positions, d_model, base):
        p = np.asarray(positions, dtype=np.float64)
        omega = 1.0 / base ** (np.arange(0, d_model // 2, dtype=np.float64) / d_model)
        angles = p[..., None] * omega
        pe = np.empty(p.shape + (d_model,))
        pe[..., 0::2] = np.sin(angles)
        pe[..., 1::2] = np.cos(angles)
        return pe
