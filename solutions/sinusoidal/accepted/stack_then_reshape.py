# ACCEPTED: sines and cosines stacked on a new last axis, then flattened: (.., d/2, 2) -> (.., d).
import math

import numpy as np


class Solution:
    def sinusoidal_encoding(self, positions, d_model, base):
        p = np.asarray(positions, dtype=np.float64)
        omega = np.exp(np.arange(0, d_model, 2, dtype=np.float64) * (-math.log(base) / d_model))
        angles = p[..., None] * omega
        return np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(p.shape + (d_model,))
