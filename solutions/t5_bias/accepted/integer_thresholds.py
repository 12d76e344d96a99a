# ACCEPTED: no logarithm at all: the first distance of each log bucket found in exact integers, then every distance placed with np.searchsorted.
import numpy as np


def first_distances(max_exact, m, max_distance):
    # bucket max_exact + j starts at the least n with (n / max_exact)^m >= (max_distance / max_exact)^j
    out, n = [], max_exact
    for j in range(1, m):
        target = max_distance**j * max_exact**m
        while n**m * max_exact**j < target:
            n += 1
        out.append(n)
    return np.array(out, dtype=np.int64)


class Solution:
    def t5_relative_bias(self, E, query_positions, key_positions, bidirectional, num_buckets, max_distance):
        E = np.asarray(E, dtype=np.float64)
        relative = np.subtract.outer(np.asarray(key_positions), np.asarray(query_positions)).T
        N = num_buckets // 2 if bidirectional else num_buckets
        offset = np.where(relative > 0, N, 0) if bidirectional else 0
        n = np.abs(relative) if bidirectional else np.maximum(-relative, 0)
        max_exact = N // 2
        starts = first_distances(max_exact, N - max_exact, max_distance)
        bucket = np.where(n < max_exact, n, max_exact + np.searchsorted(starts, n, side="right"))
        return np.moveaxis(E[offset + bucket], -1, 0)
