# Bug: the routing softmax with math.exp on the raw logits: math.exp raises OverflowError above 709.78 instead of returning inf.
import math

import numpy as np


class Solution:
    def sparse_moe(self, X, W_g, W1, W2, W3, top_k):
        X = np.asarray(X, dtype=np.float64)
        W1, W2, W3 = (np.asarray(W, dtype=np.float64) for W in (W1, W2, W3))
        L = (X @ np.asarray(W_g, dtype=np.float64)).tolist()
        out = np.zeros_like(X)
        for t, row in enumerate(L):
            chosen = sorted(range(len(row)), key=lambda e: (-row[e], e))[:top_k]
            w = [math.exp(row[e]) for e in chosen]
            total = sum(w)
            for e, w_e in zip(chosen, w):
                g = X[t] @ W1[e]
                with np.errstate(over="ignore"):
                    silu = g / (1.0 + np.exp(-g))
                out[t] += w_e / total * ((silu * (X[t] @ W3[e])) @ W2[e])
        return out
