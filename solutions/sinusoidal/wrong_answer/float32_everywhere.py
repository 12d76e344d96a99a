# WRONG: positions, frequencies and angles in float32, as the Annotated Transformer's and the PyTorch tutorial's PositionalEncoding build them: an angle of 1e5 rad is off by up to 4e-3.
import numpy as np


class Solution:
    def sinusoidal_encoding(self, positions, d_model, base):
        p = np.asarray(positions, dtype=np.float64)
        p = p.astype(np.float32)
        omega = np.exp(np.arange(0, d_model, 2, dtype=np.float32) * np.float32(-np.log(base) / d_model))
        angles = (p[..., None] * omega).astype(np.float32)
        pe = np.empty(p.shape + (d_model,))
        pe[..., 0::2] = np.sin(angles)
        pe[..., 1::2] = np.cos(angles)
        return pe
