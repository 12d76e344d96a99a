# Bug: the inputs are squeezed "to drop a batch axis", so with h = 1 (or T = 1, or d = 1) transpose(0, 2, 1) of a 2-D array raises ValueError.
"""Attention backward pass, vectorised over the heads."""

import numpy as np


class Solution:
    def attention_backward(self, Q, K, V, dO):
        Q, K, V, dO = (np.squeeze(np.asarray(a, dtype=np.float64)) for a in (Q, K, V, dO))
        scale = 1.0 / np.sqrt(Q.shape[-1])
        S = Q @ K.transpose(0, 2, 1) * scale
        P = np.exp(S - S.max(axis=-1, keepdims=True))
        P /= P.sum(axis=-1, keepdims=True)
        dV = P.transpose(0, 2, 1) @ dO
        dP = dO @ V.transpose(0, 2, 1)
        dS = P * (dP - np.sum(P * dP, axis=-1, keepdims=True))
        return np.stack([dS @ K * scale, dS.transpose(0, 2, 1) @ Q * scale, dV])
