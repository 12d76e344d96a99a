# WRONG: eps added to the standard deviation, (x - mu) / (sigma + eps), not inside the root: The Annotated Transformer's LayerNorm (harvardnlp/annotated-transformer) does this.
import numpy as np


class Solution:
    def layer_norm(self, X, gamma, beta, eps):
        X = np.asarray(X, dtype=np.float64)
        centred = X - X.mean(axis=-1, keepdims=True)
        std = np.sqrt(np.mean(centred ** 2, axis=-1, keepdims=True))
        return centred / (std + eps) * np.asarray(gamma) + np.asarray(beta)
