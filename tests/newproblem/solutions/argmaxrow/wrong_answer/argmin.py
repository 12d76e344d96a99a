# Bug: the smallest instead of the largest.
import numpy as np


class Solution:
    def argmax_rows(self, Z):
        return np.argmin(np.asarray(Z, dtype=np.float64), axis=1)
