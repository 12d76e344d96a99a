# WRONG: the pools read as [num_blocks, num_kv_heads, block_size, head_size] (vLLM's older value layout has heads before slots) by a reshape, where this problem's layout is [num_blocks, block_size, num_kv_heads, head_size].
"""Paged attention decoding, token positions mapped through the block table."""

import numpy as np


class Solution:
    def paged_attention(self, query, key_cache, value_cache, block_tables, context_lens):
        query = np.asarray(query, dtype=np.float64)
        key_cache = np.asarray(key_cache, dtype=np.float64)
        value_cache = np.asarray(value_cache, dtype=np.float64)
        num_seqs, num_heads, head_size = query.shape
        num_blocks, block_size, num_kv_heads, _ = key_cache.shape
        group = num_heads // num_kv_heads
        kv = np.arange(num_heads) // group
        scale = 1.0 / np.sqrt(head_size)
        out = np.empty_like(query)
        for i in range(num_seqs):
            n = context_lens[i]
            pos = np.arange(n)
            blocks = np.asarray(block_tables[i])[pos // block_size]
            offsets = pos % block_size
            K = key_cache.reshape(num_blocks, num_kv_heads, block_size, head_size)[blocks, :, offsets][:, kv]
            V = value_cache.reshape(num_blocks, num_kv_heads, block_size, head_size)[blocks, :, offsets][:, kv]
            s = np.einsum("hc,thc->ht", query[i], K) * scale
            p = np.exp(s - s.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            out[i] = np.einsum("ht,thc->hc", p, V)
        return out
