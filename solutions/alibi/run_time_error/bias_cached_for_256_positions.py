# RUN-TIME ERROR: the bias matrix precomputed for 256 positions and cut to T x T: for T > 256 the shapes do not broadcast.
import math

import numpy as np

MAX_POSITIONS = 256


class Solution:
    def alibi_attention(self, Q, K, V):
        Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
        h, T, d = Q.shape
        p = 2 ** int(math.floor(math.log2(h)))
        m = np.array([2.0 ** (-8.0 * j / p) for j in range(1, p + 1)]
                     + [2.0 ** (-4.0 * (2 * r + 1) / p) for r in range(h - p)])
        n = np.arange(MAX_POSITIONS)
        cached = np.where(n[:, None] >= n[None, :], -(n[:, None] - n[None, :]).astype(np.float64), -np.inf)
        bias = m[:, None, None] * cached[:T, :T]
        scores = Q @ K.transpose(0, 2, 1) / math.sqrt(d) + bias  # -inf above the diagonal
        scores -= scores.max(axis=-1, keepdims=True)
        w = np.exp(scores)
        return (w / w.sum(axis=-1, keepdims=True)) @ V
