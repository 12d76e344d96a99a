# Bug: the sequence is reshaped into tiles of 64 with Q.reshape(h, T // 64, 64, d), which assumes T is a multiple of the tile (FlashAttention kernels pad to one); any other T raises ValueError.
"""Causal attention in tiles of 64 queries and keys, online softmax."""

import numpy as np

B = 64


class Solution:
    def flash_attention(self, Q, K, V):
        Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
        h, T, d = Q.shape
        n = T // B
        Qt = Q.reshape(h, n, B, d) / np.sqrt(d)
        Kt, Vt = K.reshape(h, n, B, d), V.reshape(h, n, B, d)
        future = np.triu(np.ones((B, B), dtype=bool), k=1)
        out = np.empty((h, n, B, d))
        for i in range(n):
            m = np.full((h, B, 1), -np.inf)
            l = np.zeros((h, B, 1))
            acc = np.zeros((h, B, d))
            for j in range(i + 1):
                s = Qt[:, i] @ Kt[:, j].transpose(0, 2, 1)
                if j == i:
                    s = np.where(future, -np.inf, s)
                m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
                p = np.exp(s - m_new)
                alpha = np.exp(m - m_new)
                l = l * alpha + p.sum(axis=-1, keepdims=True)
                acc = acc * alpha + p @ Vt[:, j]
                m = m_new
            out[:, i] = acc / l
        return out.reshape(h, T, d)
