# ACCEPTED: one token at a time, as a decoder step sees it: x W + b + s (x A) B for each row, with small matrix-vector products.
import numpy as np


class Solution:
    def lora_linear(self, X, W, b, A, B, alpha):
        X = np.asarray(X, dtype=np.float64)
        W = np.asarray(W, dtype=np.float64)
        b = np.asarray(b, dtype=np.float64)
        A = np.asarray(A, dtype=np.float64)
        B = np.asarray(B, dtype=np.float64)
        s = alpha / A.shape[1]
        out = np.empty((X.shape[0], W.shape[1]))
        for t, x in enumerate(X):
            out[t] = x @ W + b + s * ((x @ A) @ B)
        return out
