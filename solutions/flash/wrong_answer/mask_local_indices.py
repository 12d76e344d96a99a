# WRONG: the causal mask inside a tile compares positions within the tile (local query row >= local key column) instead of absolute positions: right only where the query and key tiles start together (like gittensor-ai-lab/sparkinfer issue #3, flash_prefill.cu's kv_end = qpos + 1 in the wrong frame).
"""Causal attention in tiles with the online softmax, every head at once."""

import numpy as np

BQ = 128
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
            for k0 in range(0, q1, BK):
                k1 = min(k0 + BK, T)
                s = q @ K[:, k0:k1].transpose(0, 2, 1)
                if k1 - 1 > q0:
                    future = np.arange(k1 - k0)[None, :] > np.arange(q1 - q0)[:, None]
                    s = np.where(future, -np.inf, s)
                m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
                alpha = np.exp(m - m_new)
                p = np.exp(s - m_new)
                l = l * alpha + p.sum(axis=-1, keepdims=True)
                acc = acc * alpha + p @ V[:, k0:k1]
                m = m_new
            out[:, q0:q1] = acc / l
        return out
