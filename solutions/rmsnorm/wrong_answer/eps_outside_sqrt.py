# WRONG: eps added to the RMS, x / (rms + eps), not inside the root: OLMo's first RMSNorm did this (allenai/OLMo#281).
import numpy as np


class Solution:
    def rms_norm(self, X, gamma, eps):
        X = np.asarray(X, dtype=np.float64)
        rms = np.sqrt(np.mean(X * X, axis=-1, keepdims=True))
        return X / (rms + eps) * np.asarray(gamma)
