# ACCEPTED: each pair as one complex number i·e^(−iφ) = sin φ + i·cos φ; viewed as float64 its parts fall into columns 2i, 2i + 1.
import numpy as np


class Solution:
    def sinusoidal_encoding(self, positions, d_model, base):
        p = np.asarray(positions, dtype=np.float64)
        pair = np.arange(d_model // 2, dtype=np.float64)
        omega = np.exp(-(2.0 * pair / d_model) * np.log(float(base)))
        # 1j * (cos φ − i sin φ) = sin φ + i cos φ: the real part is the sine, the imaginary the cosine
        z = 1j * np.exp(-1j * (p[..., None] * omega))
        # complex128 is stored as (real, imag) pairs of float64, which is the interleaved layout
        return np.ascontiguousarray(z).view(np.float64)
