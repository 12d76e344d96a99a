# Wrong: normalises each column instead of each row.
import numpy as np


class Solution:
    def row_softmax(self, Z):
        Z = np.asarray(Z, dtype=np.float64)
        E = np.exp(Z - Z.max(axis=0, keepdims=True))
        return E / E.sum(axis=0, keepdims=True)
