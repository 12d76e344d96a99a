"""Reference solution for T5's relative position bias, with the buckets computed exactly.

The log bucket is floor((N - max_exact) * ln(n / max_exact) / ln(max_distance / max_exact)), a
real number that is a whole number at some distances (n = 16 with T5's defaults); a float log can
land a hair below it there. So the reference never takes a logarithm: x >= j is decided in exact
integers as n^m * max_exact^j >= max_distance^j * max_exact^m (m = N - max_exact), giving the
smallest distance of each log bucket, and every distance is placed by a binary search over them.
The buckets are then the same on every machine and in every dtype; `dtype` only converts E.
"""

import numpy as np


def log_bucket_starts(max_exact: int, m: int, max_distance: int) -> np.ndarray:
    """For j = 1 .. m-1, the smallest distance n whose log bucket is at least max_exact + j."""
    starts = []
    for j in range(1, m):
        rhs = max_distance**j * max_exact**m
        n = int(np.ceil(max_exact * (max_distance / max_exact) ** (j / m)))  # a guess, then exact
        while n > max_exact and (n - 1) ** m * max_exact**j >= rhs:
            n -= 1
        while n**m * max_exact**j < rhs:
            n += 1
        starts.append(n)
    return np.asarray(starts, dtype=np.int64)


class Solution:
    dtype = np.float64

    def t5_relative_bias(self, E, query_positions, key_positions, bidirectional, num_buckets, max_distance):
        table = np.asarray(E, dtype=self.dtype)  # (num_buckets, h)
        q = np.asarray(query_positions, dtype=np.int64)
        k = np.asarray(key_positions, dtype=np.int64)
        relative = k[None, :] - q[:, None]  # memory - query, (T_q, T_k)

        if bidirectional:
            N = num_buckets // 2
            offset = np.where(relative > 0, N, 0)
            n = np.abs(relative)
        else:
            N = num_buckets
            offset = np.zeros_like(relative)
            n = np.maximum(-relative, 0)

        max_exact = N // 2
        starts = log_bucket_starts(max_exact, N - max_exact, max_distance)
        log_bucket = max_exact + np.searchsorted(starts, n, side="right")  # at most N - 1: clipped
        bucket = offset + np.where(n < max_exact, n, log_bucket)
        return np.transpose(table[bucket], (2, 0, 1))  # (T_q, T_k, h) -> (h, T_q, T_k)
