"""Reference solution for the sinusoidal positional encoding (Vaswani et al. 2017).

Vectorised over positions and pairs. `dtype` is float64 for judging; the test generator re-runs it
in np.longdouble, where np.exp, np.log, np.sin and np.cos are the portable versions of
testcases/oracle.py, so the power base^(-2i/d_model) is written exp(-(2i/d_model) * log(base)).
"""

import numpy as np


class Solution:
    dtype = np.float64

    def sinusoidal_encoding(self, positions, d_model, base):
        p = np.asarray(positions, dtype=self.dtype)  # (B, T)
        log_base = np.log(np.asarray([base], dtype=self.dtype))[0]
        exponents = np.arange(0, d_model, 2, dtype=self.dtype) / self.dtype(d_model)  # 2i / d_model
        omega = np.exp(-exponents * log_base)  # (d_model / 2,)
        angles = p[..., None] * omega  # (B, T, d_model / 2)
        out = np.empty(p.shape + (d_model,), dtype=self.dtype)
        out[..., 0::2] = np.sin(angles)
        out[..., 1::2] = np.cos(angles)
        return out
