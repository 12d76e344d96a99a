# ACCEPTED: one row at a time with np.var (biased, ddof = 0, computed from the deviations) and a reciprocal root.
import numpy as np


class Solution:
    def layer_norm(self, X, gamma, beta, eps):
        X = np.asarray(X, dtype=np.float64)
        gamma = np.asarray(gamma, dtype=np.float64)
        beta = np.asarray(beta, dtype=np.float64)
        out = np.empty_like(X)
        for i, row in enumerate(X):
            inv_std = 1.0 / np.sqrt(np.var(row) + eps)
            out[i] = (row - row.mean()) * inv_std * gamma + beta
        return out
