# WRONG: std = (variance + eps) ** 2 where ** 0.5 was meant: TPlinker's LayerNorm had it (131250208/TPlinker-joint-extraction#37, components.py).
import numpy as np


class Solution:
    def layer_norm(self, X, gamma, beta, eps):
        X = np.asarray(X, dtype=np.float64)
        centred = X - X.mean(axis=-1, keepdims=True)
        std = (np.mean(centred ** 2, axis=-1, keepdims=True) + eps) ** 2
        return centred / std * np.asarray(gamma) + np.asarray(beta)
