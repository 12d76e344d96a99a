# WRONG: ReLU instead of SiLU on the gate (ReGLU); it agrees with SiLU only for |g| large.
import numpy as np


class Solution:
    def swiglu_feed_forward(self, X, W1, W2, W3):
        X = np.asarray(X, dtype=np.float64)
        G = X @ np.asarray(W1, dtype=np.float64)
        U = X @ np.asarray(W3, dtype=np.float64)
        return (np.maximum(G, 0.0) * U) @ np.asarray(W2, dtype=np.float64)
