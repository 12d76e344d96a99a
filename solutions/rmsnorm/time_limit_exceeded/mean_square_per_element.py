# TIME LIMIT: recomputes the row's mean square for every element (O(d^2) per row instead of O(d)).
import numpy as np


class Solution:
    def rms_norm(self, X, gamma, eps):
        X = np.asarray(X, dtype=np.float64)
        n_rows, d = X.shape
        out = np.empty_like(X)
        for i in range(n_rows):
            for j in range(d):
                out[i, j] = X[i, j] / np.sqrt(np.mean(X[i] ** 2) + eps) * gamma[j]
        return out
