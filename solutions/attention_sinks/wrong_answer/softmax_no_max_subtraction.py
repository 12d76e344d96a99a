# WRONG: the softmax without the row maximum subtracted: scores of thousands overflow exp to inf, and inf / inf is nan.
import numpy as np


class Solution:
    def attention_with_sinks(self, Q, K, V, n_sink, window):
        Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
        T, d = Q.shape[1], Q.shape[2]
        t = np.arange(T)[:, None]
        j = np.arange(T)[None, :]
        visible = (j <= t) & ((j < n_sink) | (t - j < window))
        with np.errstate(over="ignore", invalid="ignore"):
            weights = np.where(visible, np.exp(Q @ K.transpose(0, 2, 1) / np.sqrt(d)), 0.0)
            weights /= weights.sum(axis=-1, keepdims=True)
            return weights @ V
