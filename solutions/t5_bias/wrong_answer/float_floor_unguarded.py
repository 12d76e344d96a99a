# WRONG: the float quotient floored as computed, as Hugging Face's _relative_position_bucket truncates it (there in float32): where x is a whole number the float log gives e.g. 0.9999999999999999 and the distance lands one bucket low.
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
        large = max_exact + np.floor(np.maximum(x, 0)).astype(np.int64)
        large = np.minimum(large, num_buckets - 1)
        buckets += np.where(n < max_exact, n, large)
        return E[buckets].transpose(2, 0, 1)
