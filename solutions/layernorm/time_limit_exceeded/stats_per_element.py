# TIME LIMIT: recomputes the row's mean and variance for every element (O(d^2) per row instead of O(d)).
import numpy as np


class Solution:
    def layer_norm(self, X, gamma, beta, eps):
        X = np.asarray(X, dtype=np.float64)
        n_rows, d = X.shape
        out = np.empty_like(X)
        for i in range(n_rows):
            for j in range(d):
                out[i, j] = (X[i, j] - np.mean(X[i])) / np.sqrt(np.var(X[i]) + eps) * gamma[j] + beta[j]
        return out
