# ACCEPTED: Welford's streaming mean and variance, one column at a time for every row at once (one pass, stable).
import numpy as np


class Solution:
    def layer_norm(self, X, gamma, beta, eps):
        X = np.asarray(X, dtype=np.float64)
        n_rows, d = X.shape
        mean = np.zeros(n_rows)
        m2 = np.zeros(n_rows)  # sum of squared deviations from the running mean
        for j in range(d):
            x = X[:, j]
            delta = x - mean
            mean += delta / (j + 1)
            m2 += delta * (x - mean)
        inv_std = 1.0 / np.sqrt(m2 / d + eps)
        return (X - mean[:, None]) * inv_std[:, None] * np.asarray(gamma, dtype=np.float64) + np.asarray(beta, dtype=np.float64)
