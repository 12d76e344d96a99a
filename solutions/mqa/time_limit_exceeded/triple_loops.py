# Correct but slow: pure-Python index loops, no numpy (expected: TLE on the large tests).
"""Multi-query attention written the way the formulas read, one scalar at a time.

K and V are a single head of width d_k, read by every query head.
"""

import math


def linear(A, W, b):
    """A @ W + b with plain loops: out[t][j] = b[j] + sum_k A[t][k] * W[k][j]."""
    out = []
    for t in range(len(A)):
        row = []
        for j in range(len(b)):
            s = 0.0
            for k in range(len(W)):
                s += A[t][k] * W[k][j]
            row.append(s + b[j])
        out.append(row)
    return out


class Solution:
    def multi_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        X = [[float(v) for v in row] for row in X]
        T, d_model = len(X), len(X[0])
        d_k = d_model // num_heads
        scale = math.sqrt(d_k)

        Q = linear(X, W_Q, b_Q)  # (T, d_model)
        K = linear(X, W_K, b_K)  # (T, d_k)
        V = linear(X, W_V, b_V)  # (T, d_k)

        H = [[0.0] * d_model for _ in range(T)]
        for i in range(num_heads):
            q0 = i * d_k
            for t in range(T):
                scores = []
                for u in range(T):
                    s = 0.0
                    for c in range(d_k):
                        s += Q[t][q0 + c] * K[u][c]
                    scores.append(s / scale)
                top = max(scores)
                weights = [math.exp(s - top) for s in scores]
                total = math.fsum(weights)
                for c in range(d_k):
                    acc = 0.0
                    for u in range(T):
                        acc += weights[u] * V[u][c]
                    H[t][q0 + c] = acc / total

        return linear(H, W_O, b_O)
