# Accepted: the softmax Jacobian built explicitly per row, J = diag(p) - p p^T, and dS[t] = J dP[t]; everything else batched per head.
"""Attention backward pass through the full softmax Jacobian of every row."""

import numpy as np


class Solution:
    def attention_backward(self, Q, K, V, dO):
        Q, K, V, dO = (np.asarray(a, dtype=np.float64) for a in (Q, K, V, dO))
        h, T, d = Q.shape
        root = np.sqrt(d)
        dQ, dK, dV = [], [], []
        for i in range(h):
            S = (Q[i] / root) @ K[i].T
            P = np.exp(S - S.max(axis=1)[:, None])
            P = P / P.sum(axis=1)[:, None]
            dP = dO[i] @ V[i].T
            dS = np.empty_like(P)
            for t in range(T):
                J = np.diag(P[t]) - np.outer(P[t], P[t])  # symmetric
                dS[t] = J @ dP[t]
            dQ.append(dS @ K[i] / root)
            dK.append(dS.T @ Q[i] / root)
            dV.append(P.T @ dO[i])
        return [dQ, dK, dV]
