import numpy as np


class Solution:
    dtype = np.float64

    def two_scales(self, Z):
        Z = np.asarray(Z, dtype=self.dtype)
        return Z * 2, Z * 3
