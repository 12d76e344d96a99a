# WRONG: base^(2i/d) computed in float32 (a relative error of 6e-8), the angles then in float64: at position 1e5 an angle is off by up to 6e-3 rad.
import numpy as np


class Solution:
    def sinusoidal_encoding(self, positions, d_model, base):
        p = np.asarray(positions, dtype=np.float64)
        omega = (1.0 / np.float32(base) ** (np.arange(0, d_model, 2, dtype=np.float32) / np.float32(d_model))).astype(np.float32)
        angles = p[..., None] * omega.astype(np.float64)
        pe = np.empty(p.shape + (d_model,))
        pe[..., 0::2] = np.sin(angles)
        pe[..., 1::2] = np.cos(angles)
        return pe
