# WRONG: one mean and one variance over the whole matrix instead of one per row.
import numpy as np


class Solution:
    def layer_norm(self, X, gamma, beta, eps):
        X = np.asarray(X, dtype=np.float64)
        centred = X - X.mean()
        return centred / np.sqrt(np.mean(centred ** 2) + eps) * np.asarray(gamma) + np.asarray(beta)
