# ACCEPTED: the way PEFT's lora.Linear.forward writes it: the frozen layer, plus lora_B(lora_A(x)) * scaling with scaling = alpha / r.
import numpy as np


class Solution:
    def lora_linear(self, X, W, b, A, B, alpha):
        X = np.asarray(X, dtype=np.float64)
        A = np.asarray(A, dtype=np.float64)
        base = X @ np.asarray(W, dtype=np.float64) + np.asarray(b, dtype=np.float64)
        scaling = alpha / A.shape[1]
        return base + (X @ A) @ np.asarray(B, dtype=np.float64) * scaling
