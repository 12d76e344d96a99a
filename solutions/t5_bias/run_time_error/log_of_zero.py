# RUN-TIME ERROR: log of a zero distance: the log bucket computed before checking for an exact one, and math.log(0) raises ValueError (NumPy would only warn and give -inf).
import math

import numpy as np


class Solution:
    def t5_relative_bias(self, E, query_positions, key_positions, bidirectional, num_buckets, max_distance):
        E = np.asarray(E, dtype=np.float64)
        N = num_buckets // 2 if bidirectional else num_buckets
        max_exact = N // 2
        cache = {}
        buckets = np.empty((len(query_positions), len(key_positions)), dtype=np.int64)
        for t, q in enumerate(query_positions):
            for u, k in enumerate(key_positions):
                r = k - q
                if r not in cache:
                    n = abs(r) if bidirectional else max(-r, 0)
                    x = math.log(n / max_exact) / math.log(max_distance / max_exact) * (N - max_exact)
                    large = min(max_exact + math.floor(x + 1e-12), N - 1)
                    cache[r] = (N if bidirectional and r > 0 else 0) + (n if n < max_exact else large)
                buckets[t, u] = cache[r]
        return E[buckets].transpose(2, 0, 1)
