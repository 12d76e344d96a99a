# RUN-TIME ERROR: squeezes X, so a single row (N = 1) becomes 1-D and axis=1 no longer exists.
import numpy as np


class Solution:
    def layer_norm(self, X, gamma, beta, eps):
        X = np.squeeze(np.asarray(X, dtype=np.float64))
        centred = X - X.mean(axis=1, keepdims=True)
        variance = np.mean(centred ** 2, axis=1, keepdims=True)
        return centred / np.sqrt(variance + eps) * np.asarray(gamma) + np.asarray(beta)
