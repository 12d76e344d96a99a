# Bug: always the first column.
import numpy as np


class Solution:
    def gather_rows(self, Z, idx):
        return np.asarray(Z, dtype=np.float64)[:, 0]
