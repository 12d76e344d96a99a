# WRONG: divides by the L2 norm, sqrt(sum(x^2) + eps), instead of the RMS: the 1/d of the mean is missing (off by sqrt(d)).
import numpy as np


class Solution:
    def rms_norm(self, X, gamma, eps):
        X = np.asarray(X, dtype=np.float64)
        return X / np.sqrt(np.sum(X * X, axis=-1, keepdims=True) + eps) * np.asarray(gamma)
