# Correct but slow: pure Python, for every sequence, head and token the block table looked up and the dot product summed element by element, no numpy (expected: TLE on the large tests).
"""Paged attention decoding one scalar at a time."""

import math


class Solution:
    def paged_attention(self, query, key_cache, value_cache, block_tables, context_lens):
        block_size = len(key_cache[0])
        num_kv_heads = len(key_cache[0][0])
        out = []
        for i, q_heads in enumerate(query):
            group = len(q_heads) // num_kv_heads
            n = context_lens[i]
            rows = []
            for h, q in enumerate(q_heads):
                j = h // group
                scale = 1.0 / math.sqrt(len(q))
                scores, values = [], []
                for t in range(n):
                    block = key_cache[block_tables[i][t // block_size]]
                    k = block[t % block_size][j]
                    scores.append(sum(a * b for a, b in zip(q, k)) * scale)
                    values.append(value_cache[block_tables[i][t // block_size]][t % block_size][j])
                top = max(scores)
                w = [math.exp(s - top) for s in scores]
                z = sum(w)
                rows.append([sum(wt * v[c] for wt, v in zip(w, values)) / z for c in range(len(q))])
            out.append(rows)
        return out
