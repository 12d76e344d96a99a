# WRONG: the row's mean subtracted first (LayerNorm without beta): RMSNorm does not center.
import numpy as np


class Solution:
    def rms_norm(self, X, gamma, eps):
        X = np.asarray(X, dtype=np.float64)
        centred = X - X.mean(axis=-1, keepdims=True)
        return centred / np.sqrt(np.mean(centred * centred, axis=-1, keepdims=True) + eps) * np.asarray(gamma)
