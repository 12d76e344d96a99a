# Accepted: the way vLLM's kernel walks a sequence: block by block through the table, an online softmax (running max, rescaled sum and output) per query head; the last block read only up to the context length.
"""Paged attention decoding, streaming over each sequence's blocks."""

import numpy as np


class Solution:
    def paged_attention(self, query, key_cache, value_cache, block_tables, context_lens):
        query = np.asarray(query, dtype=np.float64)
        key_cache = np.asarray(key_cache, dtype=np.float64)
        value_cache = np.asarray(value_cache, dtype=np.float64)
        num_seqs, num_heads, head_size = query.shape
        _, block_size, num_kv_heads, _ = key_cache.shape
        kv = np.arange(num_heads) // (num_heads // num_kv_heads)
        scale = 1.0 / np.sqrt(head_size)
        out = np.empty_like(query)
        for i in range(num_seqs):
            q = query[i] * scale
            m = np.full(num_heads, -np.inf)
            l = np.zeros(num_heads)
            acc = np.zeros((num_heads, head_size))
            n = context_lens[i]
            for j in range(0, -(-n // block_size)):
                b = block_tables[i][j]
                valid = min(block_size, n - j * block_size)  # slots holding this sequence's tokens
                k = key_cache[b, :valid][:, kv]  # (valid, num_heads, head_size)
                v = value_cache[b, :valid][:, kv]
                s = np.einsum("hc,thc->ht", q, k)
                m_new = np.maximum(m, s.max(axis=1))
                alpha = np.exp(m - m_new)
                p = np.exp(s - m_new[:, None])
                l = l * alpha + p.sum(axis=1)
                acc = acc * alpha[:, None] + np.einsum("ht,thc->hc", p, v)
                m = m_new
            out[i] = acc / l[:, None]
        return out
