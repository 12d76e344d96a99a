import numpy as np


class Solution:
    dtype = np.float64

    def row_softmax(self, Z):
        Z = np.asarray(Z, dtype=self.dtype)
        E = np.exp(Z - Z.max(axis=1, keepdims=True))
        return (E / E.sum(axis=1, keepdims=True)).tolist()
