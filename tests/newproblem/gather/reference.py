import numpy as np


class Solution:
    dtype = np.float64

    def gather_rows(self, Z, idx):
        Z = np.asarray(Z, dtype=self.dtype)
        return Z[np.arange(Z.shape[0]), np.asarray(idx, dtype=np.int64)]
