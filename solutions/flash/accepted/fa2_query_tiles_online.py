# Accepted: FlashAttention-2's order, a tile of 64 queries at a time streaming over tiles of 64 keys up to the diagonal, with the online softmax (running max, rescaled sum and output).
"""Causal attention in tiles with the online softmax, every head at once."""

import numpy as np

BQ = 64
BK = 64


class Solution:
    def flash_attention(self, Q, K, V):
        Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
        h, T, d = Q.shape
        scale = 1.0 / np.sqrt(d)
        out = np.empty_like(Q)
        for q0 in range(0, T, BQ):
            q1 = min(q0 + BQ, T)
            q = Q[:, q0:q1] * scale
            m = np.full((h, q1 - q0, 1), -np.inf)
            l = np.zeros((h, q1 - q0, 1))
            acc = np.zeros((h, q1 - q0, d))
            for k0 in range(0, q1, BK):  # tiles wholly above the diagonal are skipped
                k1 = min(k0 + BK, T)
                s = q @ K[:, k0:k1].transpose(0, 2, 1)
                if k1 - 1 > q0:  # the tile reaches past the diagonal: hide keys after each query
                    future = np.arange(k0, k1)[None, :] > np.arange(q0, q1)[:, None]
                    s = np.where(future, -np.inf, s)
                m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
                alpha = np.exp(m - m_new)  # rescales what was summed under the old maximum
                p = np.exp(s - m_new)
                l = l * alpha + p.sum(axis=-1, keepdims=True)
                acc = acc * alpha + p @ V[:, k0:k1]
                m = m_new
            out[:, q0:q1] = acc / l
        return out
