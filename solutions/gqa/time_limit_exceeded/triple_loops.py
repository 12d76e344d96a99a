# Correct but slow: pure-Python index loops, no numpy (expected: TLE on the large tests).
"""Grouped query attention written the way the formulas read, one scalar at a time."""

import math


def linear(A, W, b):
    """A @ W + b with plain loops: out[t][j] = b[j] + sum_k A[t][k] * W[k][j]."""
    rows, inner, cols = len(A), len(W), len(b)
    out = []
    for t in range(rows):
        row = []
        for j in range(cols):
            s = 0.0
            for k in range(inner):
                s += A[t][k] * W[k][j]
            row.append(s + b[j])
        out.append(row)
    return out


def as_float(M):
    return [[float(v) for v in row] for row in M]


class Solution:
    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        X = as_float(X)
        T, d_model = len(X), len(X[0])
        d_k = d_model // h_q
        group = h_q // h_k
        scale = math.sqrt(d_k)

        Q = linear(X, as_float(W_Q), [float(v) for v in b_Q])
        K = linear(X, as_float(W_K), [float(v) for v in b_K])
        V = linear(X, as_float(W_V), [float(v) for v in b_V])

        H = [[0.0] * d_model for _ in range(T)]
        for i in range(h_q):
            q0 = i * d_k              # first column of query head i in Q and H
            kv0 = (i // group) * d_k  # first column of its key/value head in K and V
            for t in range(T):
                scores = []
                for u in range(T):
                    s = 0.0
                    for c in range(d_k):
                        s += Q[t][q0 + c] * K[u][kv0 + c]
                    scores.append(s / scale)
                top = max(scores)
                weights = [math.exp(s - top) for s in scores]
                total = 0.0
                for w in weights:
                    total += w
                for c in range(d_k):
                    acc = 0.0
                    for u in range(T):
                        acc += weights[u] * V[u][kv0 + c]
                    H[t][q0 + c] = acc / total

        return linear(H, as_float(W_O), [float(v) for v in b_O])
