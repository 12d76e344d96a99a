# ACCEPTED: a loop over heads and query rows, each row's softmax over its own prefix 0..t only.
import math

import numpy as np


class Solution:
    def alibi_attention(self, Q, K, V):
        Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
        h, T, d = Q.shape
        p = 1
        while p * 2 <= h:
            p *= 2
        out = np.empty_like(Q)
        for i in range(h):
            x = 8.0 * (i + 1) / p if i < p else 4.0 * (2 * (i - p) + 1) / p
            m = 2.0 ** -x
            for t in range(T):
                s = K[i, : t + 1] @ Q[i, t] / math.sqrt(d) - m * (t - np.arange(t + 1))
                w = np.exp(s - s.max())
                out[i, t] = (w / w.sum()) @ V[i, : t + 1]
        return out
