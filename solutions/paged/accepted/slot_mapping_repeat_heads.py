# Accepted: vLLM's slot mapping: each token's flat slot block_tables[i][t // block_size] * block_size + t % block_size indexes the pools flattened to (slots, kv heads, head_size); kv heads repeated to the query heads with np.repeat.
"""Paged attention decoding through flat slot indices."""

import numpy as np


class Solution:
    def paged_attention(self, query, key_cache, value_cache, block_tables, context_lens):
        query = np.asarray(query, dtype=np.float64)
        key_cache = np.asarray(key_cache, dtype=np.float64)
        value_cache = np.asarray(value_cache, dtype=np.float64)
        num_seqs, num_heads, head_size = query.shape
        num_blocks, block_size, num_kv_heads, _ = key_cache.shape
        keys = key_cache.reshape(num_blocks * block_size, num_kv_heads, head_size)
        values = value_cache.reshape(num_blocks * block_size, num_kv_heads, head_size)
        group = num_heads // num_kv_heads
        out = np.empty_like(query)
        for i in range(num_seqs):
            t = np.arange(context_lens[i])
            slots = np.asarray(block_tables[i])[t // block_size] * block_size + t % block_size
            K = np.repeat(keys[slots], group, axis=1)  # (tokens, num_heads, head_size)
            V = np.repeat(values[slots], group, axis=1)
            s = np.einsum("hc,thc->ht", query[i], K) / np.sqrt(head_size)
            w = np.exp(s - s.max(axis=1, keepdims=True))
            out[i] = np.einsum("ht,thc->hc", w, V) / w.sum(axis=1)[:, None]
        return out
