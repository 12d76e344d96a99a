# Correct but slow: pure-Python loops over every element of the five T x T products, no numpy (expected: TLE on the large tests).
"""Attention backward pass written the way the formulas read, one scalar at a time."""

import math


class Solution:
    def attention_backward(self, Q, K, V, dO):
        dQ, dK, dV = [], [], []
        for q, k, v, do in zip(Q, K, V, dO):
            T, d = len(q), len(q[0])
            scale = 1.0 / math.sqrt(d)
            P = []
            for t in range(T):
                s = [sum(a * b for a, b in zip(q[t], k[u])) * scale for u in range(T)]
                m = max(s)
                e = [math.exp(x - m) for x in s]
                z = sum(e)
                P.append([x / z for x in e])
            dS = []
            for t in range(T):
                dp = [sum(a * b for a, b in zip(do[t], v[u])) for u in range(T)]
                D = sum(p * g for p, g in zip(P[t], dp))
                dS.append([p * (g - D) for p, g in zip(P[t], dp)])
            dQ.append([[sum(dS[t][u] * k[u][c] for u in range(T)) * scale for c in range(d)] for t in range(T)])
            dK.append([[sum(dS[t][u] * q[t][c] for t in range(T)) * scale for c in range(d)] for u in range(T)])
            dV.append([[sum(P[t][u] * do[t][c] for t in range(T)) for c in range(d)] for u in range(T)])
        return dQ, dK, dV
