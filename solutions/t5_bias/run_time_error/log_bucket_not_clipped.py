# RUN-TIME ERROR: the log bucket not clipped to N - 1: a distance past max_distance gets a bucket past the table, and E[bucket] raises IndexError.
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
        max_exact = num_buckets // 2
        with np.errstate(divide="ignore"):
            x = np.log(n / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
        large = max_exact + np.floor(np.maximum(x, 0) + 1e-12).astype(np.int64)
        buckets += np.where(n < max_exact, n, large)
        return E[buckets].transpose(2, 0, 1)
