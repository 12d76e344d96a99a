# Correct but slow: pure-Python loops over every multiply-add, no numpy (expected: TLE on the large tests).
import math


def matmul(A, B):
    """A @ B, accumulating each row of the result from the rows of B."""
    out = []
    for a in A:
        row = [0.0] * len(B[0])
        for k, a_k in enumerate(a):
            B_k = B[k]
            for j in range(len(row)):
                row[j] += a_k * B_k[j]
        out.append(row)
    return out


def silu(g):
    if g >= 0:
        return g / (1.0 + math.exp(-g))
    e = math.exp(g)
    return g * e / (1.0 + e)


class Solution:
    def swiglu_feed_forward(self, X, W1, W2, W3):
        G = matmul(X, W1)
        U = matmul(X, W3)
        H = [[silu(g) * u for g, u in zip(g_row, u_row)] for g_row, u_row in zip(G, U)]
        return matmul(H, W2)
