"""causal decoded one position at a time inside one call, the KV cache concatenated at every step.

A function problem's answer computed the way a naive decoder runs: the projections of every row
first (kept, updated in place), then for each position t its keys and values concatenated onto
the cache (num_heads, t, d_k) and attention over it. At causal's 024-large (T = 512,
d_model = 256, 8 heads) each copy is up to 1 MiB, two per step, each larger than any block freed
before it. The same allocation pattern as concat_cache.py, without the interactive exchange: the
judged time is the run's own, so inside against outside is what the sandbox's process costs the
same code.
"""

import numpy as np


class Solution:
    def causal_self_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        X, W_Q, b_Q, W_K, b_K, W_V, b_V, W_O, b_O = (np.asarray(a, dtype=np.float64)
                                                     for a in (X, W_Q, b_Q, W_K, b_K, W_V, b_V, W_O, b_O))
        T, d_model = X.shape
        d_k = d_model // num_heads
        Q, K, V = X @ W_Q, X @ W_K, X @ W_V
        Q += b_Q
        Q *= 1 / np.sqrt(d_k)
        K += b_K
        V += b_V
        keys = np.empty((num_heads, 0, d_k))  # keys[h, u]: head h at position u
        values = np.empty((num_heads, 0, d_k))
        heads = np.empty((T, d_model))
        for t in range(T):
            keys = np.concatenate([keys, K[t].reshape(num_heads, 1, d_k)], axis=1)
            values = np.concatenate([values, V[t].reshape(num_heads, 1, d_k)], axis=1)
            scores = Q[t].reshape(num_heads, 1, d_k) @ keys.transpose(0, 2, 1)  # (num_heads, 1, t + 1)
            scores -= scores.max(axis=-1, keepdims=True)
            weights = np.exp(scores)
            weights /= weights.sum(axis=-1, keepdims=True)
            heads[t] = (weights @ values).reshape(d_model)
        out = heads @ W_O
        out += b_O
        return out
