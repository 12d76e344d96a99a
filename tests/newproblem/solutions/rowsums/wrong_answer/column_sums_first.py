# Bug: the first row's elements summed down the columns instead.
import numpy as np


class Solution:
    def row_sums(self, Z):
        Z = np.asarray(Z, dtype=np.float64)
        return Z.sum(axis=0)[: len(Z)] if Z.shape[1] >= len(Z) else np.zeros(len(Z))
