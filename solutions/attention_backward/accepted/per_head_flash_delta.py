# Accepted: one head at a time, with FlashAttention's D = rowsum(dO * O) in place of rowsum(dP * P); returns a tuple of nested lists.
"""Attention backward pass, head by head, the way FlashAttention-2's backward kernel writes it."""

import numpy as np


class Solution:
    def attention_backward(self, Q, K, V, dO):
        grads = ([], [], [])
        for q, k, v, do in zip(Q, K, V, dO):
            q, k, v, do = (np.array(a, dtype=np.float64) for a in (q, k, v, do))
            scale = 1.0 / np.sqrt(q.shape[1])
            s = (q * scale) @ k.T
            m = s.max(axis=1, keepdims=True)
            e = np.exp(s - m)
            l = e.sum(axis=1, keepdims=True)
            p = e / l
            o = p @ v
            delta = (do * o).sum(axis=1, keepdims=True)  # equals rowsum(dP * P)
            ds = p * (do @ v.T - delta)
            for out, g in zip(grads, (ds @ k * scale, ds.T @ q * scale, p.T @ do)):
                out.append(g.tolist())
        return grads
