# Bug: the pair in the wrong order.
import numpy as np


class Solution:
    def two_scales(self, Z):
        Z = np.asarray(Z, dtype=np.float64)
        return 3 * Z, 2 * Z
