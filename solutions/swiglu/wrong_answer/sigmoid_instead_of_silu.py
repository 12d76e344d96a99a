# WRONG: the gate through a sigmoid, not SiLU = g * sigmoid(g) (the original GLU of Dauphin et al.).
import numpy as np


class Solution:
    def swiglu_feed_forward(self, X, W1, W2, W3):
        X = np.asarray(X, dtype=np.float64)
        G = X @ np.asarray(W1, dtype=np.float64)
        U = X @ np.asarray(W3, dtype=np.float64)
        with np.errstate(over="ignore"):
            sigmoid = 1.0 / (1.0 + np.exp(-G))
        return (sigmoid * U) @ np.asarray(W2, dtype=np.float64)
