# WRONG: the cosine column 2i+1 gets base^(-(2i+1)/d), its own column index, instead of sharing the sine's 2i/d (maxjcohen/transformer#62: arange(1, d, 2) for the cosines).
import numpy as np


class Solution:
    def sinusoidal_encoding(self, positions, d_model, base):
        p = np.asarray(positions, dtype=np.float64)
        omega_sin = 1.0 / base ** (np.arange(0, d_model, 2, dtype=np.float64) / d_model)
        omega_cos = 1.0 / base ** (np.arange(1, d_model, 2, dtype=np.float64) / d_model)
        angles = p[..., None] * omega_sin
        pe = np.empty(p.shape + (d_model,))
        pe[..., 0::2] = np.sin(angles)
        pe[..., 1::2] = np.cos(p[..., None] * omega_cos)
        return pe
