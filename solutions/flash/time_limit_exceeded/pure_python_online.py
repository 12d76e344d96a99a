# Correct but slow: pure Python, one pass over keys 0 .. t per query with a running-max (online) softmax, no numpy: O(T^2 d) interpreted steps (expected: TLE on the large tests).
"""Causal attention one scalar at a time, in constant memory per row."""

import math


class Solution:
    def flash_attention(self, Q, K, V):
        out = []
        for q_head, k_head, v_head in zip(Q, K, V):
            d = len(q_head[0])
            scale = 1.0 / math.sqrt(d)
            rows = []
            for t, q in enumerate(q_head):
                m, l, acc = -math.inf, 0.0, [0.0] * d
                for u in range(t + 1):
                    s = sum(a * b for a, b in zip(q, k_head[u])) * scale
                    if s > m:
                        r = math.exp(m - s)
                        l, acc, m = l * r, [x * r for x in acc], s
                    w = math.exp(s - m)
                    l += w
                    acc = [x + w * y for x, y in zip(acc, v_head[u])]
                rows.append([x / l for x in acc])
            out.append(rows)
        return out
