# Accepted: one sequence at a time, its blocks gathered with the block table into a contiguous (tokens, kv heads, head_size) array cut at the context length; query heads grouped as (kv heads, group) so nothing is repeated.
"""Paged attention decoding, sequence by sequence."""

import numpy as np


class Solution:
    def paged_attention(self, query, key_cache, value_cache, block_tables, context_lens):
        query = np.asarray(query, dtype=np.float64)
        key_cache = np.asarray(key_cache, dtype=np.float64)
        value_cache = np.asarray(value_cache, dtype=np.float64)
        num_seqs, num_heads, head_size = query.shape
        _, block_size, num_kv_heads, _ = key_cache.shape
        group = num_heads // num_kv_heads
        out = np.empty_like(query)
        for i in range(num_seqs):
            n = context_lens[i]
            used = block_tables[i][: -(-n // block_size)]  # ceil(n / block_size) blocks
            K = key_cache[used].reshape(-1, num_kv_heads, head_size)[:n]
            V = value_cache[used].reshape(-1, num_kv_heads, head_size)[:n]
            q = query[i].reshape(num_kv_heads, group, head_size)  # head h = kv head h // group
            s = np.einsum("kgc,tkc->kgt", q, K) / np.sqrt(head_size)
            p = np.exp(s - s.max(axis=-1, keepdims=True))
            p /= p.sum(axis=-1, keepdims=True)
            out[i] = np.einsum("kgt,tkc->kgc", p, V).reshape(num_heads, head_size)
        return out
