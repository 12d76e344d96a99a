# WRONG: the log bucket clipped only at num_buckets - 1 after the direction offset, not at N - 1 within its half: far keys before the query spill into the buckets of keys after it (the missing min of huggingface/candle#1312).
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
        buckets = np.minimum(buckets, (2 if bidirectional else 1) * num_buckets - 1)
        return E[buckets].transpose(2, 0, 1)
