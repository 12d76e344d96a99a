# WRONG: computes in float32: at rows near +-10000 the float32 spacing (1e-3) swallows deviations of 1e-2.
import numpy as np


class Solution:
    def layer_norm(self, X, gamma, beta, eps):
        X = np.asarray(X, dtype=np.float32)
        centred = X - X.mean(axis=-1, keepdims=True)
        variance = np.mean(centred ** 2, axis=-1, keepdims=True)
        out = centred / np.sqrt(variance + np.float32(eps)) * np.asarray(gamma, dtype=np.float32)
        return out + np.asarray(beta, dtype=np.float32)
