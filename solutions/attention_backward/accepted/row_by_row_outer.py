# Accepted: one query row at a time (a softmax vector per row), dK and dV accumulated as outer products of that row's weights.
"""Attention backward pass, streaming over the query rows."""

import numpy as np


class Solution:
    def attention_backward(self, Q, K, V, dO):
        Q, K, V, dO = (np.asarray(a, dtype=np.float64) for a in (Q, K, V, dO))
        h, T, d = Q.shape
        scale = 1.0 / np.sqrt(d)
        dQ, dK, dV = np.zeros_like(Q), np.zeros_like(K), np.zeros_like(V)
        for i in range(h):
            for t in range(T):
                s = K[i] @ Q[i, t] * scale  # (T,)
                p = np.exp(s - s.max())
                p /= p.sum()
                dp = V[i] @ dO[i, t]  # (T,)
                ds = p * (dp - p @ dp)
                dQ[i, t] = ds @ K[i] * scale
                dK[i] += np.outer(ds, Q[i, t]) * scale
                dV[i] += np.outer(p, dO[i, t])
        return dQ, dK, dV
