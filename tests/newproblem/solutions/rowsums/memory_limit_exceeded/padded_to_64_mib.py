# Bug: a 64 MiB scratch array written in full, over the package's 40 MiB limit (fits the default 256).
import numpy as np


class Solution:
    def row_sums(self, Z):
        scratch = np.ones(8 << 20)
        Z = np.asarray(Z, dtype=np.float64)
        return Z.sum(axis=1) + scratch[: len(Z)] - 1
