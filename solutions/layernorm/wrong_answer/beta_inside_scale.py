# WRONG: beta added before gamma multiplies, gamma * (x_hat + beta), instead of gamma * x_hat + beta.
import numpy as np


class Solution:
    def layer_norm(self, X, gamma, beta, eps):
        X = np.asarray(X, dtype=np.float64)
        centred = X - X.mean(axis=-1, keepdims=True)
        variance = np.mean(centred ** 2, axis=-1, keepdims=True)
        return (centred / np.sqrt(variance + eps) + np.asarray(beta)) * np.asarray(gamma)
