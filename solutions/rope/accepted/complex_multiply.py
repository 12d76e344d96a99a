# ACCEPTED: each pair (x_i, x_{i+d/2}) as the complex number x_i + j x_{i+d/2}, multiplied by exp(j * angle).
import numpy as np


class Solution:
    def rotary_embedding(self, q, k, positions, base):
        both = np.asarray([q, k], dtype=np.float64)  # (2, num_heads, T, d)
        half = both.shape[-1] // 2
        theta = np.exp(-np.log(float(base)) * 2.0 * np.arange(half) / (2 * half))
        turn = np.exp(1j * np.asarray(positions, dtype=np.float64)[:, None] * theta)  # (T, d/2)
        z = (both[..., :half] + 1j * both[..., half:]) * turn
        return np.concatenate([z.real, z.imag], axis=-1)
