# Accepted: the hidden width in chunks of 64 summed into the output (never the whole T x d_ff at
# once), with sigmoid(g) = exp(-log(1 + exp(-g))) from np.logaddexp.
import numpy as np

CHUNK = 64


class Solution:
    def swiglu_feed_forward(self, X, W1, W2, W3):
        X = np.asarray(X, dtype=np.float64)
        W1 = np.asarray(W1, dtype=np.float64)
        W2 = np.asarray(W2, dtype=np.float64)
        W3 = np.asarray(W3, dtype=np.float64)
        out = np.zeros((X.shape[0], W2.shape[1]))
        for lo in range(0, W1.shape[1], CHUNK):
            part = slice(lo, lo + CHUNK)
            g = X @ W1[:, part]
            silu = g * np.exp(-np.logaddexp(0.0, -g))
            out += (silu * (X @ W3[:, part])) @ W2[part]
        return out
