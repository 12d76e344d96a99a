# ACCEPTED: one query position at a time (all heads together), gathering only its visible keys: O(T (n_sink + window) d).
import numpy as np


class Solution:
    def attention_with_sinks(self, Q, K, V, n_sink, window):
        Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
        h, T, d = Q.shape
        out = np.empty_like(Q)
        scale = 1.0 / np.sqrt(d)
        for t in range(T):
            start = max(0, t - window + 1)
            sinks = np.arange(min(n_sink, start))  # sinks the window does not already hold
            keys = np.concatenate([sinks, np.arange(start, t + 1)])
            s = np.einsum("hd,hkd->hk", Q[:, t], K[:, keys]) * scale
            w = np.exp(s - s.max(axis=1, keepdims=True))
            w /= w.sum(axis=1, keepdims=True)
            out[:, t] = np.einsum("hk,hkd->hd", w, V[:, keys])
        return out
