# ACCEPTED: vectorised over all rows: the mean, then the mean of the squared deviations (two passes).
import numpy as np


class Solution:
    def layer_norm(self, X, gamma, beta, eps):
        X = np.asarray(X, dtype=np.float64)
        centred = X - X.mean(axis=-1, keepdims=True)
        variance = np.mean(centred ** 2, axis=-1, keepdims=True)
        return centred / np.sqrt(variance + eps) * np.asarray(gamma, dtype=np.float64) + np.asarray(beta, dtype=np.float64)
