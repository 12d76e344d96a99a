# WRONG: x / sqrt(RMS(x) + eps), the root taken twice: the formula torch.nn.RMSNorm's documentation printed (pytorch/pytorch#139274).
import numpy as np


class Solution:
    def rms_norm(self, X, gamma, eps):
        X = np.asarray(X, dtype=np.float64)
        rms = np.sqrt(np.mean(X * X, axis=-1, keepdims=True))
        return X / np.sqrt(rms + eps) * np.asarray(gamma)
