# WRONG: max_distance used as the exact threshold: distances below max_distance get a bucket each (clipped to the last), no log spacing at all.
import math

import numpy as np


class Solution:
    def t5_relative_bias(self, E, query_positions, key_positions, bidirectional, num_buckets, max_distance):
        E = np.asarray(E, dtype=np.float64)
        relative = np.asarray(key_positions)[None, :] - np.asarray(query_positions)[:, None]
        buckets = np.zeros(relative.shape, dtype=np.int64)
        if bidirectional:
            num_buckets //= 2
            buckets += (relative > 0) * num_buckets
            n = np.abs(relative)
        else:
            n = -np.minimum(relative, 0)
        max_exact = max_distance
        n = np.minimum(n, num_buckets - 1)
        large = np.full(relative.shape, num_buckets - 1)
        buckets += np.where(n < max_exact, n, large)
        return E[buckets].transpose(2, 0, 1)
