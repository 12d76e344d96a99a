# WRONG: the delta weight applied transposed, X (A B)^T, the (out, in) vs (in, out) layout mix-up PEFT's fan_in_fan_out flag exists for: it fits only when d_in == d_out (elsewhere a shape error).
import numpy as np


class Solution:
    def lora_linear(self, X, W, b, A, B, alpha):
        X = np.asarray(X, dtype=np.float64)
        A = np.asarray(A, dtype=np.float64)
        delta = (alpha / A.shape[1]) * (A @ np.asarray(B, dtype=np.float64))
        return X @ np.asarray(W, dtype=np.float64) + np.asarray(b, dtype=np.float64) + X @ delta.T
