# WRONG: the forward scores not scaled by 1/sqrt(d) (the scale kept in dQ and dK only).
"""Attention backward pass, vectorised over the heads."""

import numpy as np


class Solution:
    def attention_backward(self, Q, K, V, dO):
        Q, K, V, dO = (np.asarray(a, dtype=np.float64) for a in (Q, K, V, dO))
        scale = 1.0 / np.sqrt(Q.shape[-1])
        S = Q @ K.transpose(0, 2, 1)
        P = np.exp(S - S.max(axis=-1, keepdims=True))
        P /= P.sum(axis=-1, keepdims=True)
        dV = P.transpose(0, 2, 1) @ dO
        dP = dO @ V.transpose(0, 2, 1)
        D = np.sum(P * dP, axis=-1, keepdims=True)
        dS = P * (dP - D)
        dQ = dS @ K * scale
        dK = dS.transpose(0, 2, 1) @ Q * scale
        return dQ, dK, dV
