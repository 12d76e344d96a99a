# ACCEPTED: a plain Python loop builds the bucket of every distance 0, 1, 2, ... until the last bucket is reached (at most max_distance steps, math.log with a 1e-12 margin), then one vectorised lookup per pair.
import math

import numpy as np


class Solution:
    def t5_relative_bias(self, E, query_positions, key_positions, bidirectional, num_buckets, max_distance):
        E = np.asarray(E, dtype=np.float64)
        relative = np.asarray(key_positions)[None, :] - np.asarray(query_positions)[:, None]
        N = num_buckets // 2 if bidirectional else num_buckets
        max_exact = N // 2
        scale = (N - max_exact) / math.log(max_distance / max_exact)
        by_distance = []  # by_distance[n]: the bucket of distance n; every longer distance takes the last one
        n = 0
        while not by_distance or by_distance[-1] < N - 1:
            if n < max_exact:
                by_distance.append(n)
            else:
                by_distance.append(min(max_exact + math.floor(math.log(n / max_exact) * scale + 1e-12), N - 1))
            n += 1
        lookup = np.array(by_distance)
        if bidirectional:
            n = np.abs(relative)
            offset = np.where(relative > 0, N, 0)
        else:
            n = np.maximum(-relative, 0)
            offset = 0
        buckets = offset + lookup[np.minimum(n, len(lookup) - 1)]
        return E[buckets].transpose(2, 0, 1)
