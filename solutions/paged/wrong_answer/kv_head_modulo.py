# WRONG: query head h reads kv head h % num_kv_heads instead of h // group, what np.tile gives in place of np.repeat (onnx/onnx PR #7274: GQA's Tile gave [head0, head1, head0, head1]).
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
        kv = np.arange(num_heads) % num_kv_heads
        scale = 1.0 / np.sqrt(head_size)
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
