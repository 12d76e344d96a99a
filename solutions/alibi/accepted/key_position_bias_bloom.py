# ACCEPTED: BLOOM's form: the bias m * u on key u alone, equal to -m (t - u) up to a constant per row, which softmax ignores; the paper's recursive get_slopes.
import math

import numpy as np


def get_slopes(n):
    def power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start**i for i in range(n)]

    if math.log2(n).is_integer():
        return power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return power_of_2(closest) + get_slopes(2 * closest)[0::2][: n - closest]


class Solution:
    def alibi_attention(self, Q, K, V):
        Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
        h, T, d = Q.shape
        m = np.array(get_slopes(h))[:, None, None]
        bias = m * np.arange(T, dtype=np.float64)[None, None, :]  # (h, 1, T)
        scores = np.matmul(Q, K.transpose(0, 2, 1)) / math.sqrt(d) + bias
        scores = np.where(np.tri(T, dtype=bool), scores, -np.inf)
        scores = scores - scores.max(axis=-1, keepdims=True)
        w = np.exp(scores)
        return np.matmul(w / w.sum(axis=-1, keepdims=True), V)
