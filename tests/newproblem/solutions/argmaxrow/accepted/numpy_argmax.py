# Route: numpy's argmax, an int64 array.
import numpy as np


class Solution:
    def argmax_rows(self, Z):
        return np.argmax(np.asarray(Z, dtype=np.float64), axis=1)
