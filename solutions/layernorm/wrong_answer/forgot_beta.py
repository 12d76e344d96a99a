# WRONG: the shift beta forgotten (only gamma applied).
import numpy as np


class Solution:
    def layer_norm(self, X, gamma, beta, eps):
        X = np.asarray(X, dtype=np.float64)
        centred = X - X.mean(axis=-1, keepdims=True)
        variance = np.mean(centred ** 2, axis=-1, keepdims=True)
        return centred / np.sqrt(variance + eps) * np.asarray(gamma)
