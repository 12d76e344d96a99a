# WRONG: eps left out, (x - mu) / sigma: a constant row (variance 0) gives 0 / 0 = NaN.
import numpy as np


class Solution:
    def layer_norm(self, X, gamma, beta, eps):
        X = np.asarray(X, dtype=np.float64)
        centred = X - X.mean(axis=-1, keepdims=True)
        with np.errstate(all="ignore"):
            return centred / np.sqrt(np.mean(centred ** 2, axis=-1, keepdims=True)) * np.asarray(gamma) + np.asarray(beta)
