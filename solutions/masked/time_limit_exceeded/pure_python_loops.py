# Correct but slow: pure-Python index loops, no numpy, one batch item, head and query at a time (expected: TLE on the large test).
"""Masked attention written the way the formulas read, one scalar at a time."""

import math


def linear(A, W, b):
    """A @ W + b for a list of rows A, accumulating each result row from the rows of W."""
    out = []
    for a in A:
        row = [float(x) for x in b]
        for i in range(len(W)):
            a_i = a[i]
            W_i = W[i]
            for j in range(len(row)):
                row[j] += a_i * W_i[j]
        out.append(row)
    return out


class Solution:
    def masked_attention(self, q, k, v, mask, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        B, T_q, d_model = len(q), len(q[0]), len(q[0][0])
        T_k = len(k[0])
        d_k = d_model // num_heads
        scale = math.sqrt(d_k)

        out = []
        for b in range(B):
            Q = linear(q[b], W_Q, b_Q)
            K = linear(k[b], W_K, b_K)
            V = linear(v[b], W_V, b_V)
            H = [[0.0] * d_model for _ in range(T_q)]
            for h in range(num_heads):
                lo = h * d_k  # head h owns columns lo .. lo + d_k - 1
                for t in range(T_q):
                    seen = [u for u in range(T_k) if mask[b][t][u] == 0]  # 1 hides key u
                    scores = []
                    for u in seen:
                        s = 0.0
                        for c in range(lo, lo + d_k):
                            s += Q[t][c] * K[u][c]
                        scores.append(s / scale)
                    top = max(scores)
                    weights = [math.exp(s - top) for s in scores]
                    total = sum(weights)
                    for c in range(lo, lo + d_k):
                        acc = 0.0
                        for w, u in zip(weights, seen):
                            acc += w * V[u][c]
                        H[t][c] = acc / total
            out.append(linear(H, W_O, b_O))
        return out
