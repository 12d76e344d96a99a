# WRONG: scales by (1 + gamma), Gemma's convention (transformers' GemmaRMSNorm stores the weight minus 1), not by gamma.
import numpy as np


class Solution:
    def rms_norm(self, X, gamma, eps):
        X = np.asarray(X, dtype=np.float64)
        return X / np.sqrt(np.mean(X * X, axis=-1, keepdims=True) + eps) * (1.0 + np.asarray(gamma))
