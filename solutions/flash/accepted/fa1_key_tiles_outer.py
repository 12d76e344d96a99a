# Accepted: FlashAttention-1's order, the outer loop over tiles of 64 keys, each updating the running max, sum and output of every query at or after it.
"""Causal attention streaming over key tiles, state kept for all queries."""

import numpy as np

BK = 64


class Solution:
    def flash_attention(self, Q, K, V):
        Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
        h, T, d = Q.shape
        Qs = Q / np.sqrt(d)
        m = np.full((h, T), -np.inf)
        l = np.zeros((h, T))
        acc = np.zeros((h, T, d))
        for k0 in range(0, T, BK):
            k1 = min(k0 + BK, T)
            s = np.einsum("hqc,hkc->hqk", Qs[:, k0:], K[:, k0:k1])  # queries before k0 see none of it
            s[:, np.arange(k0, T)[:, None] < np.arange(k0, k1)[None, :]] = -np.inf
            m_new = np.maximum(m[:, k0:], s.max(axis=-1))
            alpha = np.exp(m[:, k0:] - m_new)
            p = np.exp(s - m_new[..., None])
            l[:, k0:] = l[:, k0:] * alpha + p.sum(axis=-1)
            acc[:, k0:] = acc[:, k0:] * alpha[..., None] + np.einsum("hqk,hkc->hqc", p, V[:, k0:k1])
            m[:, k0:] = m_new
        return acc / l[..., None]
