# ACCEPTED: one row at a time with np.linalg.norm: the mean square is ||x||^2 / d.
import numpy as np


class Solution:
    def rms_norm(self, X, gamma, eps):
        X = np.asarray(X, dtype=np.float64)
        gamma = np.asarray(gamma, dtype=np.float64)
        d = X.shape[1]
        out = np.empty_like(X)
        for i, row in enumerate(X):
            norm = np.linalg.norm(row)
            out[i] = row / np.sqrt(norm * norm / d + eps) * gamma
        return out
