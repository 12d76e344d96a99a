# WRONG: eps left out, x / rms: a row of zeros gives 0 / 0 = NaN, and rows with a mean square near eps move.
import numpy as np


class Solution:
    def rms_norm(self, X, gamma, eps):
        X = np.asarray(X, dtype=np.float64)
        with np.errstate(all="ignore"):
            return X / np.sqrt(np.mean(X * X, axis=-1, keepdims=True)) * np.asarray(gamma)
