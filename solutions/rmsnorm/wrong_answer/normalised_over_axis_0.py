# WRONG: the mean square over axis 0 (each feature across the rows) instead of the last axis: kyegomez/zeta#180's RMSNorm normalized over dim -2.
import numpy as np


class Solution:
    def rms_norm(self, X, gamma, eps):
        X = np.asarray(X, dtype=np.float64)
        return X / np.sqrt(np.mean(X * X, axis=0, keepdims=True) + eps) * np.asarray(gamma)
