# TIME LIMIT: a Python loop over every (query, key) pair of the NumPy arrays, the bucket recomputed with a scalar np.log and written with one array assignment each: T_q * T_k interpreted iterations (2^18 at the largest sizes) instead of array operations.
import math

import numpy as np


class Solution:
    def t5_relative_bias(self, E, query_positions, key_positions, bidirectional, num_buckets, max_distance):
        E = np.asarray(E, dtype=np.float64)
        q = np.asarray(query_positions)
        k = np.asarray(key_positions)
        N = num_buckets // 2 if bidirectional else num_buckets
        max_exact = N // 2
        out = np.empty((E.shape[1], len(q), len(k)))
        for t in range(len(q)):
            for u in range(len(k)):
                r = k[u] - q[t]
                offset = N if bidirectional and r > 0 else 0
                n = abs(r) if bidirectional else max(-r, 0)
                if n < max_exact:
                    b = n
                else:
                    x = np.log(n / max_exact) / math.log(max_distance / max_exact) * (N - max_exact)
                    b = min(max_exact + int(np.floor(x + 1e-12)), N - 1)
                out[:, t, u] = E[offset + b]
        return out
