# WRONG: the sinks visible to every query, also to one before them: the sink mask OR-ed in after the causal one, so it overrides causality (an and/or mix-up of combined masks, as in lucidrains/local-attention issue #5).
import numpy as np


class Solution:
    def attention_with_sinks(self, Q, K, V, n_sink, window):
        Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
        T, d = Q.shape[1], Q.shape[2]
        t = np.arange(T)[:, None]
        j = np.arange(T)[None, :]
        visible = (j < n_sink) | ((j <= t) & (t - j < window))
        scores = np.where(visible, Q @ K.transpose(0, 2, 1) / np.sqrt(d), -np.inf)
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        return weights @ V
