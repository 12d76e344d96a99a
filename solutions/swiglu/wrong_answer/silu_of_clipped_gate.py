# WRONG: the gate clipped to [-88, 88] (float32's exp range) before SiLU, so silu(g) = 88 instead of g for every g > 88.
import numpy as np


class Solution:
    def swiglu_feed_forward(self, X, W1, W2, W3):
        X = np.asarray(X, dtype=np.float64)
        G = np.clip(X @ np.asarray(W1, dtype=np.float64), -88.0, 88.0)
        U = X @ np.asarray(W3, dtype=np.float64)
        return (G / (1.0 + np.exp(-G)) * U) @ np.asarray(W2, dtype=np.float64)
