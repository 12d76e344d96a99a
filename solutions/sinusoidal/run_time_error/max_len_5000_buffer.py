# RUN-TIME ERROR: a buffer precomputed for max_len = 5000 positions (the PyTorch tutorial's default) and indexed by position: IndexError past 4999.
import numpy as np

MAX_LEN = 5000


class Solution:
    def sinusoidal_encoding(self, positions, d_model, base):
        omega = 1.0 / base ** (np.arange(0, d_model, 2, dtype=np.float64) / d_model)
        angles = np.arange(MAX_LEN, dtype=np.float64)[:, None] * omega
        pe = np.empty((MAX_LEN, d_model))
        pe[:, 0::2] = np.sin(angles)
        pe[:, 1::2] = np.cos(angles)
        return pe[np.asarray(positions, dtype=np.int64)]
