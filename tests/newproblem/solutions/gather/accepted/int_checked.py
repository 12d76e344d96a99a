# Route: fancy indexing; refuses an index that is not a Python int.
import numpy as np


class Solution:
    def gather_rows(self, Z, idx):
        if not all(type(i) is int for i in idx):
            raise TypeError("idx did not arrive as ints")
        Z = np.asarray(Z, dtype=np.float64)
        return Z[np.arange(len(idx)), np.asarray(idx)]
