# WRONG: the unbiased variance (divides by d - 1), as torch's x.std(-1) gives by default: The Annotated Transformer's LayerNorm (harvardnlp/annotated-transformer, the_annotated_transformer.py) and its many copies use it.
import numpy as np


class Solution:
    def layer_norm(self, X, gamma, beta, eps):
        X = np.asarray(X, dtype=np.float64)
        centred = X - X.mean(axis=-1, keepdims=True)
        variance = np.var(X, axis=-1, ddof=1, keepdims=True)
        return centred / np.sqrt(variance + eps) * np.asarray(gamma) + np.asarray(beta)
