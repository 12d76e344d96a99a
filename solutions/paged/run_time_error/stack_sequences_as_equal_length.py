# Bug: the gathered keys of all sequences are stacked into one array as if every sequence had the same length; with different context lengths np.stack raises ValueError (the sample already).
"""Paged attention decoding, gathered per sequence then batched."""

import numpy as np


class Solution:
    def paged_attention(self, query, key_cache, value_cache, block_tables, context_lens):
        query = np.asarray(query, dtype=np.float64)
        key_cache = np.asarray(key_cache, dtype=np.float64)
        value_cache = np.asarray(value_cache, dtype=np.float64)
        num_seqs, num_heads, head_size = query.shape
        _, block_size, num_kv_heads, _ = key_cache.shape
        group = num_heads // num_kv_heads
        keys, values = [], []
        for i in range(num_seqs):
            n = context_lens[i]
            used = block_tables[i][: -(-n // block_size)]
            keys.append(key_cache[used].reshape(-1, num_kv_heads, head_size)[:n])
            values.append(value_cache[used].reshape(-1, num_kv_heads, head_size)[:n])
        K = np.repeat(np.stack(keys), group, axis=2)  # (num_seqs, tokens, num_heads, head_size)
        V = np.repeat(np.stack(values), group, axis=2)
        s = np.einsum("shc,sthc->sht", query, K) / np.sqrt(head_size)
        p = np.exp(s - s.max(axis=-1, keepdims=True))
        p /= p.sum(axis=-1, keepdims=True)
        return np.einsum("sht,sthc->shc", p, V)
