import numpy as np


class Solution:
    dtype = np.float64

    def argmax_rows(self, Z):
        return np.argmax(np.asarray(Z, dtype=self.dtype), axis=1)
