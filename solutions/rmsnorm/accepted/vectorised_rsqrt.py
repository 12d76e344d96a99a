# ACCEPTED: vectorised over all rows, LLaMA's way: x * (1 / sqrt(mean(x^2) + eps)) * gamma.
import numpy as np


class Solution:
    def rms_norm(self, X, gamma, eps):
        X = np.asarray(X, dtype=np.float64)
        inv_rms = 1.0 / np.sqrt(np.mean(np.square(X), axis=-1, keepdims=True) + eps)
        return X * inv_rms * np.asarray(gamma, dtype=np.float64)
