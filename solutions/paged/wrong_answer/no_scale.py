# WRONG: scores not scaled by 1/sqrt(head_size).
"""Paged attention decoding, token positions mapped through the block table."""

import numpy as np


class Solution:
    def paged_attention(self, query, key_cache, value_cache, block_tables, context_lens):
        query = np.asarray(query, dtype=np.float64)
        key_cache = np.asarray(key_cache, dtype=np.float64)
        value_cache = np.asarray(value_cache, dtype=np.float64)
        num_seqs, num_heads, head_size = query.shape
        _, block_size, num_kv_heads, _ = key_cache.shape
        group = num_heads // num_kv_heads
        kv = np.arange(num_heads) // group
        scale = 1.0
        out = np.empty_like(query)
        for i in range(num_seqs):
            n = context_lens[i]
            pos = np.arange(n)
            blocks = np.asarray(block_tables[i])[pos // block_size]
            offsets = pos % block_size
            K = key_cache[blocks, offsets][:, kv]  # (n, num_heads, head_size)
            V = value_cache[blocks, offsets][:, kv]
            s = np.einsum("hc,thc->ht", query[i], K) * scale
            p = np.exp(s - s.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            out[i] = np.einsum("ht,thc->hc", p, V)
        return out
