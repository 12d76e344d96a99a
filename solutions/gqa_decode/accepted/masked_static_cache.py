# Accepted: gpt-fast's static KV cache: preallocated for the longest sequence, every step attends over all of it with a mask hiding the positions not yet written.
"""GQA decoding with a static cache, as gpt-fast (pytorch-labs/gpt-fast, model.py KVCache) does.

The cache holds max_seq_len positions from the start, so its shape never changes (what lets a
compiler capture the step once). Each step writes its key and value at `input_pos` and attends
over the whole cache, positions past input_pos hidden by a causal mask row: O(max_seq_len) work per
step whatever t is, which the time limit allows.
"""

import numpy as np

MAX_SEQ_LEN = 1280  # the statement's largest T


class Solution:
    def __init__(self, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        f64 = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        self.wqkv = np.hstack([f64(W_Q), f64(W_K), f64(W_V)])  # one fused projection, as gpt-fast's wqkv
        self.bqkv = np.concatenate([f64(b_Q), f64(b_K), f64(b_V)])
        self.wo, self.bo = f64(W_O), f64(b_O)
        self.d_model = len(self.wo)
        self.n_head, self.n_local_heads = h_q, h_k
        self.head_dim = self.d_model // h_q
        self.k_cache = np.zeros((h_k, MAX_SEQ_LEN, self.head_dim))
        self.v_cache = np.zeros((h_k, MAX_SEQ_LEN, self.head_dim))
        self.causal = np.tril(np.ones((MAX_SEQ_LEN, MAX_SEQ_LEN), dtype=bool))
        self.input_pos = 0

    def step(self, x):
        qkv = np.asarray(x, dtype=np.float64) @ self.wqkv + self.bqkv
        kv_size = self.n_local_heads * self.head_dim
        q, k, v = np.split(qkv, [self.d_model, self.d_model + kv_size])
        pos = self.input_pos
        self.k_cache[:, pos] = k.reshape(self.n_local_heads, self.head_dim)
        self.v_cache[:, pos] = v.reshape(self.n_local_heads, self.head_dim)
        self.input_pos = pos + 1
        group = self.n_head // self.n_local_heads
        q = q.reshape(self.n_local_heads, group, self.head_dim)
        scores = q @ self.k_cache.transpose(0, 2, 1) / np.sqrt(self.head_dim)  # (h_k, group, max_seq_len)
        scores = np.where(self.causal[pos], scores, -np.inf)
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        scores /= scores.sum(axis=-1, keepdims=True)
        heads = scores @ self.v_cache  # (h_k, group, head_dim): heads 0..h_q-1 in order
        return heads.reshape(-1) @ self.wo + self.bo
