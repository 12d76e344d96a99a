# Correct but slow: pure-Python loops over every scalar, no numpy (expected: TLE on the large tests).
"""Multi-head latent attention written the way the formulas read, one number at a time."""

import math


def matmul(A, B):
    """A @ B for lists of rows, accumulating each result row from the rows of B."""
    out = []
    for a in A:
        row = [0.0] * len(B[0])
        for k, a_k in enumerate(a):
            B_k = B[k]
            for j in range(len(row)):
                row[j] += a_k * B_k[j]
        out.append(row)
    return out


def rope(row, t, lo, d_R):
    """Columns lo .. lo + d_R - 1 of `row` with each pair (2j, 2j+1) turned by t * 10000^(-2j/d_R)."""
    out = []
    for j in range(d_R // 2):
        angle = t * 10000.0 ** (-2.0 * j / d_R)
        a, b = row[lo + 2 * j], row[lo + 2 * j + 1]
        out += [a * math.cos(angle) - b * math.sin(angle), a * math.sin(angle) + b * math.cos(angle)]
    return out


class Solution:
    def multi_head_latent_attention(self, X, W_DKV, W_UK, W_UV, W_Q, W_QR, W_KR, num_heads, W_O):
        X = [[float(v) for v in row] for row in X]
        T = len(X)
        d_h = len(W_UK[0]) // num_heads
        d_R = len(W_KR[0])
        scale = math.sqrt(d_h + d_R)

        c = matmul(X, W_DKV)
        K, V, Q = matmul(c, W_UK), matmul(c, W_UV), matmul(X, W_Q)
        QR, KR = matmul(X, W_QR), matmul(X, W_KR)
        k_R = [rope(KR[u], u, 0, d_R) for u in range(T)]

        H = [[0.0] * (num_heads * d_h) for _ in range(T)]
        for i in range(num_heads):
            lo = i * d_h  # head i owns columns lo .. lo + d_h - 1 of Q, K, V and H
            for t in range(T):
                q_R = rope(QR[t], t, i * d_R, d_R)
                scores = []
                for u in range(T):
                    s = 0.0
                    for col in range(lo, lo + d_h):
                        s += Q[t][col] * K[u][col]
                    for col in range(d_R):
                        s += q_R[col] * k_R[u][col]
                    scores.append(s / scale)
                top = max(scores)
                weights = [math.exp(s - top) for s in scores]
                total = sum(weights)
                for col in range(lo, lo + d_h):
                    acc = 0.0
                    for u in range(T):
                        acc += weights[u] * V[u][col]
                    H[t][col] = acc / total

        return matmul(H, W_O)
