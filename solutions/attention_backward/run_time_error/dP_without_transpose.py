# Bug: dP = dO @ V without transposing V, so the product is (T, d) @ (T, d) and raises ValueError whenever T != d (the sample already).
"""Attention backward pass, vectorised over the heads."""

import numpy as np


class Solution:
    def attention_backward(self, Q, K, V, dO):
        Q, K, V, dO = (np.asarray(a, dtype=np.float64) for a in (Q, K, V, dO))
        scale = 1.0 / np.sqrt(Q.shape[-1])
        S = Q @ K.transpose(0, 2, 1) * scale
        P = np.exp(S - S.max(axis=-1, keepdims=True))
        P /= P.sum(axis=-1, keepdims=True)
        dV = P.transpose(0, 2, 1) @ dO
        dP = dO @ V
        dS = P * (dP - np.sum(P * dP, axis=-1, keepdims=True))
        return np.stack([dS @ K * scale, dS.transpose(0, 2, 1) @ Q * scale, dV])
