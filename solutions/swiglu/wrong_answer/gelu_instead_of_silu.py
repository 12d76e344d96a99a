# WRONG: GELU (tanh approximation) instead of SiLU on the gate: GEGLU, the other GLU variant of Shazeer's "GLU Variants Improve Transformer".
import numpy as np


class Solution:
    def swiglu_feed_forward(self, X, W1, W2, W3):
        X = np.asarray(X, dtype=np.float64)
        G = X @ np.asarray(W1, dtype=np.float64)
        U = X @ np.asarray(W3, dtype=np.float64)
        gelu = 0.5 * G * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (G + 0.044715 * G**3)))
        return (gelu * U) @ np.asarray(W2, dtype=np.float64)
