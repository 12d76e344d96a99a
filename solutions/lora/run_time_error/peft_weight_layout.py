# RUN-TIME ERROR: A and B taken in PEFT's nn.Linear layout (lora_A.weight is (r, d_in)) and transposed: X @ A.T needs d_in == r, a ValueError on the sample.
import numpy as np


class Solution:
    def lora_linear(self, X, W, b, A, B, alpha):
        X = np.asarray(X, dtype=np.float64)
        A = np.asarray(A, dtype=np.float64)
        B = np.asarray(B, dtype=np.float64)
        base = X @ np.asarray(W, dtype=np.float64) + np.asarray(b, dtype=np.float64)
        return base + (alpha / A.shape[1]) * ((X @ A.T) @ B.T)
