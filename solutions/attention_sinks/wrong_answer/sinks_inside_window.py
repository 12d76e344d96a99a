# WRONG: the sinks counted inside the window: window - n_sink recent keys, the convention of Hugging Face's SinkCache (window_length includes num_sink_tokens, remain_length = window_length - num_sink_tokens, transformers PR #31537).
import numpy as np


class Solution:
    def attention_with_sinks(self, Q, K, V, n_sink, window):
        Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
        T, d = Q.shape[1], Q.shape[2]
        t = np.arange(T)[:, None]
        j = np.arange(T)[None, :]
        visible = (j <= t) & ((j < n_sink) | (t - j < window - n_sink) | (j == t))
        scores = np.where(visible, Q @ K.transpose(0, 2, 1) / np.sqrt(d), -np.inf)
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        return weights @ V
