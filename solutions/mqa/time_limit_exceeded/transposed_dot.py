# Correct but slow: pure Python with transposed operands and sum(map(mul)), no numpy (expected: TLE on the large tests).
"""Multi-query attention on Python lists.

The single key head is shared by all query heads, so the work is organised per position: for
each row of Q, every head slice is scored against the same key rows. Right operands are
transposed once so every product is a dot product of two sequences.
"""

import math
from operator import mul


def project(X, W, b):
    columns = list(zip(*W))
    return [[sum(map(mul, x, col)) + bias for col, bias in zip(columns, b)] for x in X]


class Solution:
    def multi_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        X = [[float(v) for v in row] for row in X]
        d_model = len(X[0])
        d_k = d_model // num_heads
        inv_scale = 1.0 / math.sqrt(d_k)

        Q = project(X, W_Q, b_Q)
        K = project(X, W_K, b_K)             # (T, d_k), the one key head
        V_cols = list(zip(*project(X, W_V, b_V)))  # (d_k, T), the one value head, transposed

        H = []
        for q_row in Q:
            out_row = []
            for lo in range(0, d_model, d_k):
                q = q_row[lo:lo + d_k]
                scores = [sum(map(mul, q, k)) * inv_scale for k in K]
                top = max(scores)
                weights = [math.exp(s - top) for s in scores]
                total = sum(weights)
                out_row.extend(sum(map(mul, weights, col)) / total for col in V_cols)
            H.append(out_row)

        return project(H, W_O, b_O)
