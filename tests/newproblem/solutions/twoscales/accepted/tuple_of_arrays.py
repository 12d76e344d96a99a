# Route: a tuple of two arrays, read as their stack.
import numpy as np


class Solution:
    def two_scales(self, Z):
        Z = np.asarray(Z, dtype=np.float64)
        return 2 * Z, 3 * Z
