# WRONG: the adapter divided by r twice (alpha / r^2): scaling = alpha / r and the product divided by r again, as Guitaricet/my_pefty_llama's pefty_llama/peft/lora.py did (its issue #2).
import numpy as np


class Solution:
    def lora_linear(self, X, W, b, A, B, alpha):
        X = np.asarray(X, dtype=np.float64)
        A = np.asarray(A, dtype=np.float64)
        r = A.shape[1]
        base = X @ np.asarray(W, dtype=np.float64) + np.asarray(b, dtype=np.float64)
        return base + (alpha / r) * ((X @ A) @ np.asarray(B, dtype=np.float64)) / r
