# WRONG: statistics over axis 0 (each feature across the rows, as BatchNorm does) instead of over the last axis.
import numpy as np


class Solution:
    def layer_norm(self, X, gamma, beta, eps):
        X = np.asarray(X, dtype=np.float64)
        centred = X - X.mean(axis=0, keepdims=True)
        variance = np.mean(centred ** 2, axis=0, keepdims=True)
        return centred / np.sqrt(variance + eps) * np.asarray(gamma) + np.asarray(beta)
