# WRONG: the frozen bias added inside the scaled adapter branch, X W + (alpha / r) (X A B + b): the bias must be added once, unscaled.
import numpy as np


class Solution:
    def lora_linear(self, X, W, b, A, B, alpha):
        X = np.asarray(X, dtype=np.float64)
        A = np.asarray(A, dtype=np.float64)
        adapter = (X @ A) @ np.asarray(B, dtype=np.float64) + np.asarray(b, dtype=np.float64)
        return X @ np.asarray(W, dtype=np.float64) + (alpha / A.shape[1]) * adapter
