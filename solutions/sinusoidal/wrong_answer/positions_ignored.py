# WRONG: the positions argument ignored: token t encoded at position t (0..T-1), the row index of a max_len buffer sliced as pe[:T].
import numpy as np


class Solution:
    def sinusoidal_encoding(self, positions, d_model, base):
        p = np.asarray(positions, dtype=np.float64)
        omega = 1.0 / base ** (np.arange(0, d_model, 2, dtype=np.float64) / d_model)
        rows = np.broadcast_to(np.arange(p.shape[-1], dtype=np.float64), p.shape)  # 0..T-1 in every sequence
        angles = rows[..., None] * omega
        pe = np.empty(p.shape + (d_model,))
        pe[..., 0::2] = np.sin(angles)
        pe[..., 1::2] = np.cos(angles)
        return pe
