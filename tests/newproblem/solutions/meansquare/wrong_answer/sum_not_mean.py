# Bug: the sum of squares, never divided by the count.
import numpy as np


class Solution:
    def mean_square(self, Z):
        Z = np.asarray(Z, dtype=np.float64)
        return float((Z * Z).sum())
