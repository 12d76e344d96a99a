# Bug: the weights read in PyTorch's nn.Linear layout (out, in), X @ W1.T: the shapes do not fit unless d_model = d_ff, and matmul raises ValueError.
import numpy as np


class Solution:
    def swiglu_feed_forward(self, X, W1, W2, W3):
        X = np.asarray(X, dtype=np.float64)
        G = X @ np.asarray(W1, dtype=np.float64).T
        U = X @ np.asarray(W3, dtype=np.float64).T
        return (G / (1.0 + np.exp(-G)) * U) @ np.asarray(W2, dtype=np.float64).T
