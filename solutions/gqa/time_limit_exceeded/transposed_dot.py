# Correct but slow: pure Python with transposed operands and sum(map(mul)), no numpy (expected: TLE on the large tests).
"""Grouped query attention on lists of heads.

Every product is a dot product of two Python sequences, so right operands are transposed once
(zip(*W)) and reused. The key/value heads are split off once and shared by their query group.
"""

import math
from operator import mul


def project(X, W, b):
    columns = list(zip(*W))
    return [[sum(map(mul, x, col)) + bias for col, bias in zip(columns, b)] for x in X]


def split_heads(M, n, width):
    """n matrices of shape (rows, width): head j holds columns j*width .. (j+1)*width - 1."""
    return [[row[j * width:(j + 1) * width] for row in M] for j in range(n)]


class Solution:
    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        X = [[float(v) for v in row] for row in X]
        d_model = len(X[0])
        d_k = d_model // h_q
        group = h_q // h_k
        inv_scale = 1.0 / math.sqrt(d_k)

        Q_heads = split_heads(project(X, W_Q, b_Q), h_q, d_k)
        K_heads = split_heads(project(X, W_K, b_K), h_k, d_k)
        # Values are read column by column, so keep each value head transposed: (d_k, T).
        V_cols = [list(zip(*head)) for head in split_heads(project(X, W_V, b_V), h_k, d_k)]

        outputs = []  # outputs[i]: (T, d_k) result of query head i
        for i, Q_i in enumerate(Q_heads):
            K_g, V_g = K_heads[i // group], V_cols[i // group]
            head = []
            for q in Q_i:
                scores = [sum(map(mul, q, k)) * inv_scale for k in K_g]
                top = max(scores)
                weights = [math.exp(s - top) for s in scores]
                total = sum(weights)
                head.append([sum(map(mul, weights, col)) / total for col in V_g])
            outputs.append(head)

        # Concatenate the heads along the feature axis, head 0 first.
        H = [[x for head in outputs for x in head[t]] for t in range(len(X))]
        return project(H, W_O, b_O)
