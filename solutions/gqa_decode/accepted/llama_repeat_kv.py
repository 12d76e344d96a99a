# Accepted: Meta's llama model.py way: a preallocated (max_seq_len, h_k, d_k) cache, and repeat_kv copying the cached keys and values out to every query head at each step.
"""GQA decoding as Meta's reference LLaMA code does it (llama/model.py, Attention.forward).

The cache is allocated once for the longest sequence the statement allows; each step writes its
key and value at `start_pos` and reads `cache[:start_pos + 1]` back. `repeat_kv` then expands the
h_k cached heads to the h_q query heads by copying them (expand + reshape), so every step copies
the whole cache once more: O(t * d_model) memory traffic per step, O(T^2 * d_model) in all. The
time limit is chosen so that this production pattern stays within half of it.
"""

import numpy as np

MAX_SEQ_LEN = 1280  # the statement's largest T: the cache is sized once, as llama's max_seq_len


def repeat_kv(x, n_rep):
    """(seqlen, h_k, d_k) -> (seqlen, h_k * n_rep, d_k): each key/value head copied n_rep times."""
    seqlen, h_k, d_k = x.shape
    if n_rep == 1:
        return x
    return np.broadcast_to(x[:, :, None, :], (seqlen, h_k, n_rep, d_k)).reshape(seqlen, h_k * n_rep, d_k)


class Solution:
    def __init__(self, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        f64 = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        self.wq, self.bq, self.wk, self.bk = f64(W_Q), f64(b_Q), f64(W_K), f64(b_K)
        self.wv, self.bv, self.wo, self.bo = f64(W_V), f64(b_V), f64(W_O), f64(b_O)
        self.n_heads, self.n_kv_heads = h_q, h_k
        self.n_rep = h_q // h_k
        self.head_dim = self.wq.shape[0] // h_q
        self.cache_k = np.zeros((MAX_SEQ_LEN, h_k, self.head_dim))
        self.cache_v = np.zeros((MAX_SEQ_LEN, h_k, self.head_dim))
        self.start_pos = 0

    def step(self, x):
        x = np.asarray(x, dtype=np.float64)
        xq = (x @ self.wq + self.bq).reshape(self.n_heads, self.head_dim)
        xk = (x @ self.wk + self.bk).reshape(self.n_kv_heads, self.head_dim)
        xv = (x @ self.wv + self.bv).reshape(self.n_kv_heads, self.head_dim)
        pos = self.start_pos
        self.cache_k[pos] = xk
        self.cache_v[pos] = xv
        self.start_pos = pos + 1
        keys = repeat_kv(self.cache_k[:pos + 1], self.n_rep)  # (seqlen, h_q, d_k), a copy
        values = repeat_kv(self.cache_v[:pos + 1], self.n_rep)
        keys, values = keys.transpose(1, 0, 2), values.transpose(1, 0, 2)  # (h_q, seqlen, d_k)
        scores = (keys @ xq[:, :, None])[:, :, 0] / np.sqrt(self.head_dim)  # (h_q, seqlen)
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        scores /= scores.sum(axis=-1, keepdims=True)
        output = (scores[:, None, :] @ values)[:, 0, :]  # (h_q, d_k)
        return output.reshape(-1) @ self.wo + self.bo
