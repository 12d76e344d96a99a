# Correct but slow: pure-Python index loops, no numpy; each query loops over its band of keys only (expected: TLE on the large tests).
"""Sliding-window attention written the way the formulas read, one scalar at a time."""

import math


def linear(A, W, b):
    """A @ W + b, accumulating row t of the result from the rows of W."""
    out = []
    for a in A:
        row = [float(v) for v in b]
        for k in range(len(W)):
            a_k = a[k]
            W_k = W[k]
            for j in range(len(row)):
                row[j] += a_k * W_k[j]
        out.append(row)
    return out


class Solution:
    def sliding_window_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, window, W_O, b_O):
        X = [[float(v) for v in row] for row in X]
        T, d_model = len(X), len(X[0])
        d_k = d_model // num_heads
        scale = math.sqrt(d_k)

        Q = linear(X, W_Q, b_Q)
        K = linear(X, W_K, b_K)
        V = linear(X, W_V, b_V)

        H = [[0.0] * d_model for _ in range(T)]
        for h in range(num_heads):
            lo = h * d_k  # head h owns columns lo .. lo + d_k - 1 of Q, K, V and H
            for t in range(T):
                band = range(max(0, t - window + 1), t + 1)  # the visible keys; the others get weight 0
                scores = []
                for u in band:
                    s = 0.0
                    for c in range(lo, lo + d_k):
                        s += Q[t][c] * K[u][c]
                    scores.append(s / scale)
                top = max(scores)
                weights = [math.exp(s - top) for s in scores]
                total = sum(weights)
                for c in range(lo, lo + d_k):
                    acc = 0.0
                    for weight, u in zip(weights, band):
                        acc += weight / total * V[u][c]
                    H[t][c] = acc

        return linear(H, W_O, b_O)
