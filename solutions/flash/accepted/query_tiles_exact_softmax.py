# Accepted: a tile of 256 queries at a time against every key up to the tile's last row, an exact softmax per tile (no online rescaling); at most 256 x T scores exist at once.
"""Causal attention by query tiles, each with an ordinary masked softmax."""

import numpy as np

B = 256


class Solution:
    def flash_attention(self, Q, K, V):
        Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
        h, T, d = Q.shape
        out = np.empty_like(Q)
        for i in range(h):
            for q0 in range(0, T, B):
                q1 = min(q0 + B, T)
                s = Q[i, q0:q1] @ K[i, :q1].T / np.sqrt(d)
                s[np.triu_indices(q1 - q0, k=1 + q0, m=q1)] = -np.inf
                s -= s.max(axis=1, keepdims=True)
                np.exp(s, out=s)
                out[i, q0:q1] = (s @ V[i, :q1]) / s.sum(axis=1, keepdims=True)
        return out
