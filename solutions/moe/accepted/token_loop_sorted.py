# Accepted: one token at a time; Python's sorted with the key (-logit, index) picks the experts, math.exp the weights.
import math

import numpy as np


class Solution:
    def sparse_moe(self, X, W_g, W1, W2, W3, top_k):
        X = np.asarray(X, dtype=np.float64)
        W1 = np.asarray(W1, dtype=np.float64)
        W2 = np.asarray(W2, dtype=np.float64)
        W3 = np.asarray(W3, dtype=np.float64)
        logits = (X @ np.asarray(W_g, dtype=np.float64)).tolist()
        out = np.zeros_like(X)
        for t, row in enumerate(logits):
            chosen = sorted(range(len(row)), key=lambda e: (-row[e], e))[:top_k]
            best = row[chosen[0]]
            w = [math.exp(row[e] - best) for e in chosen]
            total = sum(w)
            x = X[t]
            for e, w_e in zip(chosen, w):
                g = x @ W1[e]
                sigmoid = np.where(g >= 0, 1.0 / (1.0 + np.exp(-np.abs(g))),
                                   np.exp(-np.abs(g)) / (1.0 + np.exp(-np.abs(g))))
                out[t] += (w_e / total) * ((g * sigmoid * (x @ W3[e])) @ W2[e])
        return out
