# Route: a (1, 1) array from keepdims: one element, accepted for a scalar output.
import numpy as np


class Solution:
    def mean_square(self, Z):
        Z = np.asarray(Z, dtype=np.float64)
        return np.mean(Z * Z, keepdims=True)
