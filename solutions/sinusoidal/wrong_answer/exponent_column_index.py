# WRONG: column c gets base^(-2c/d), the column index doubled instead of the pair's 2i (Kyubyong/transformer#38, shenweichen/DeepCTR#379, jadore801120/attention-is-all-you-need-pytorch#32, SamLynnEvans/Transformer#25).
import numpy as np


class Solution:
    def sinusoidal_encoding(self, positions, d_model, base):
        p = np.asarray(positions, dtype=np.float64)
        omega = 1.0 / base ** (2.0 * np.arange(d_model, dtype=np.float64) / d_model)
        angles = p[..., None] * omega  # (.., d_model): one angle per column
        pe = np.empty(p.shape + (d_model,))
        pe[..., 0::2] = np.sin(angles[..., 0::2])
        pe[..., 1::2] = np.cos(angles[..., 1::2])
        return pe
