# Bug: the temperature is never applied.
import numpy as np


class Solution:
    def tempered_softmax(self, Z, temperature):
        Z = np.asarray(Z, dtype=np.float64)
        E = np.exp(Z - Z.max(axis=1, keepdims=True))
        return E / E.sum(axis=1, keepdims=True)
