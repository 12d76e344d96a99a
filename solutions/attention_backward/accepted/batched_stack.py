# Accepted: every head at once with batched matmul, the softmax recomputed with its row maximum subtracted; returns np.stack([dQ, dK, dV]).
"""Attention backward pass, vectorised over the heads."""

import numpy as np


class Solution:
    def attention_backward(self, Q, K, V, dO):
        Q, K, V, dO = (np.asarray(a, dtype=np.float64) for a in (Q, K, V, dO))
        scale = 1.0 / np.sqrt(Q.shape[-1])
        S = np.einsum("htc,huc->htu", Q, K) * scale
        P = np.exp(S - S.max(axis=-1, keepdims=True))
        P /= P.sum(axis=-1, keepdims=True)
        dV = np.einsum("htu,htc->huc", P, dO)
        dP = np.einsum("htc,huc->htu", dO, V)
        dS = P * (dP - np.sum(P * dP, axis=-1, keepdims=True))
        dQ = np.einsum("htu,huc->htc", dS, K) * scale
        dK = np.einsum("htu,htc->huc", dS, Q) * scale
        return np.stack([dQ, dK, dV])
