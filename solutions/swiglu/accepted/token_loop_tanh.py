# Accepted: one token at a time, with sigmoid(g) = (1 + tanh(g / 2)) / 2 (tanh saturates, no overflow).
import numpy as np


class Solution:
    def swiglu_feed_forward(self, X, W1, W2, W3):
        W1 = np.asarray(W1, dtype=np.float64)
        W2 = np.asarray(W2, dtype=np.float64)
        W3 = np.asarray(W3, dtype=np.float64)
        out = []
        for x in X:
            x = np.asarray(x, dtype=np.float64)
            g = x @ W1
            h = g * 0.5 * (1.0 + np.tanh(0.5 * g)) * (x @ W3)
            out.append((h @ W2).tolist())
        return out
