# Bug: X squeezed before its shape is read, so with one token (T = 1) or one feature the unpacking of X.shape raises ValueError.
import numpy as np


class Solution:
    def swiglu_feed_forward(self, X, W1, W2, W3):
        X = np.squeeze(np.asarray(X, dtype=np.float64))
        T, d_model = X.shape
        G = X @ np.asarray(W1, dtype=np.float64)
        U = X @ np.asarray(W3, dtype=np.float64)
        with np.errstate(over="ignore"):
            silu = G / (1.0 + np.exp(-G))
        return ((silu * U) @ np.asarray(W2, dtype=np.float64)).reshape(T, d_model)
