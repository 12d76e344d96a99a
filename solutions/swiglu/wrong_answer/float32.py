# WRONG: computed in float32 (inputs converted with np.float32): about 7 significant digits, not enough for a relative tolerance of 1e-6.
import numpy as np


class Solution:
    def swiglu_feed_forward(self, X, W1, W2, W3):
        X = np.asarray(X, dtype=np.float32)
        G = X @ np.asarray(W1, dtype=np.float32)
        U = X @ np.asarray(W3, dtype=np.float32)
        with np.errstate(over="ignore"):
            silu = G / (np.float32(1) + np.exp(-G))
        return (silu * U) @ np.asarray(W2, dtype=np.float32)
