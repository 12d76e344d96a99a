# Correct but slow: pure Python, one pass over the keys 0 .. t of each query with a running-max (online) softmax, no numpy (expected: TLE on the large tests).
"""Causal self-attention, streaming over the visible key positions.

For each query row t the softmax over keys 0 .. t is accumulated in one pass: a running maximum,
a running denominator and a running weighted sum of value rows, all rescaled whenever a larger
score shows up. Keys after t are never visited, which is the causal mask.
"""

import math
from operator import mul


def project(X, W, b):
    columns = list(zip(*W))
    return [[math.fsum(map(mul, x, col)) + bias for col, bias in zip(columns, b)] for x in X]


class Solution:
    def causal_self_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        X = [[float(v) for v in row] for row in X]
        d_model = len(X[0])
        d_k = d_model // num_heads
        inv_scale = 1.0 / math.sqrt(d_k)

        Q, K, V = project(X, W_Q, b_Q), project(X, W_K, b_K), project(X, W_V, b_V)

        H = []
        for t, q_row in enumerate(Q):
            out_row = []
            for lo in range(0, d_model, d_k):
                hi = lo + d_k
                q = q_row[lo:hi]
                best = -math.inf
                denom = 0.0
                acc = [0.0] * d_k
                for k_row, v_row in zip(K[:t + 1], V[:t + 1]):
                    s = sum(map(mul, q, k_row[lo:hi])) * inv_scale
                    if s > best:
                        shrink = math.exp(best - s)  # 0.0 on the first key
                        denom = denom * shrink + 1.0
                        acc = [a * shrink + v for a, v in zip(acc, v_row[lo:hi])]
                        best = s
                    else:
                        e = math.exp(s - best)
                        denom += e
                        acc = [a + e * v for a, v in zip(acc, v_row[lo:hi])]
                out_row.extend(a / denom for a in acc)
            H.append(out_row)

        return project(H, W_O, b_O)
