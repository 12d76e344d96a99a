# WRONG: the sink keys and the window keys concatenated as two lists, so while they overlap (t + 1 < n_sink + window) a key in both is counted twice in the softmax.
import numpy as np


class Solution:
    def attention_with_sinks(self, Q, K, V, n_sink, window):
        Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
        h, T, d = Q.shape
        out = np.empty_like(Q)
        for t in range(T):
            keys = np.concatenate([np.arange(min(n_sink, t + 1)), np.arange(max(0, t - window + 1), t + 1)])
            s = np.einsum("hd,hkd->hk", Q[:, t], K[:, keys]) / np.sqrt(d)
            w = np.exp(s - s.max(axis=1, keepdims=True))
            w /= w.sum(axis=1, keepdims=True)
            out[:, t] = np.einsum("hk,hkd->hd", w, V[:, keys])
        return out
