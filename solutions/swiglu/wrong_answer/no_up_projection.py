# WRONG: no gating, W2 silu(X W1) (W3 unused): "swiglu" mapped to plain SiLU, as in google-research/timesfm issue #493 (src/timesfm3/util.py).
import numpy as np


class Solution:
    def swiglu_feed_forward(self, X, W1, W2, W3):
        X = np.asarray(X, dtype=np.float64)
        G = X @ np.asarray(W1, dtype=np.float64)
        with np.errstate(over="ignore"):
            silu = G / (1.0 + np.exp(-G))
        return silu @ np.asarray(W2, dtype=np.float64)
