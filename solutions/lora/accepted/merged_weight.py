# ACCEPTED: merge first, as PEFT's merge_and_unload does: W' = W + (alpha / r) A B once, then one product X W' + b.
import numpy as np


class Solution:
    def lora_linear(self, X, W, b, A, B, alpha):
        A = np.asarray(A, dtype=np.float64)
        merged = np.asarray(W, dtype=np.float64) + (alpha / A.shape[1]) * (A @ np.asarray(B, dtype=np.float64))
        return np.asarray(X, dtype=np.float64) @ merged + np.asarray(b, dtype=np.float64)
