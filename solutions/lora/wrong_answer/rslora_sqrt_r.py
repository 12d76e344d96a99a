# WRONG: rsLoRA's scaling alpha / sqrt(r) (Kalajdzievski 2023; PEFT's use_rslora=True), another convention than the asked alpha / r.
import numpy as np


class Solution:
    def lora_linear(self, X, W, b, A, B, alpha):
        X = np.asarray(X, dtype=np.float64)
        A = np.asarray(A, dtype=np.float64)
        base = X @ np.asarray(W, dtype=np.float64) + np.asarray(b, dtype=np.float64)
        return base + (alpha / np.sqrt(A.shape[1])) * ((X @ A) @ np.asarray(B, dtype=np.float64))
