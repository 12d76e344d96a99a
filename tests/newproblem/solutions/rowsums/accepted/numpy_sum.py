# Route: numpy's sum along the rows.
import numpy as np


class Solution:
    def row_sums(self, Z):
        return np.asarray(Z, dtype=np.float64).sum(axis=1)
