# WRONG: no top-k at all: every expert runs on every token, weighted by the softmax over all the logits (a dense mixture).
import numpy as np


class Solution:
    def sparse_moe(self, X, W_g, W1, W2, W3, top_k):
        X = np.asarray(X, dtype=np.float64)
        W1, W2, W3 = (np.asarray(W, dtype=np.float64) for W in (W1, W2, W3))
        L = X @ np.asarray(W_g, dtype=np.float64)
        P = np.exp(L - L.max(axis=1, keepdims=True))
        P /= P.sum(axis=1, keepdims=True)
        out = np.zeros_like(X)
        for e in range(W1.shape[0]):
            g = X @ W1[e]
            with np.errstate(over="ignore"):
                silu = g / (1.0 + np.exp(-g))
            out += P[:, e:e + 1] * ((silu * (X @ W3[e])) @ W2[e])
        return out
