# Bug: SiLU element by element with math.exp(-g): for g < -709.78 math.exp raises OverflowError, where np.exp would return inf and the quotient 0.
import math

import numpy as np


class Solution:
    def swiglu_feed_forward(self, X, W1, W2, W3):
        X = np.asarray(X, dtype=np.float64)
        G = X @ np.asarray(W1, dtype=np.float64)
        U = X @ np.asarray(W3, dtype=np.float64)
        silu = np.array([[g / (1.0 + math.exp(-g)) for g in row] for row in G.tolist()])
        return (silu * U) @ np.asarray(W2, dtype=np.float64)
