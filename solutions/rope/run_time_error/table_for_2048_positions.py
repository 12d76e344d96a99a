# RUN-TIME ERROR: cos/sin tables precomputed for max_position_embeddings = 2048 and indexed by position: IndexError past 2047.
import numpy as np

MAX_POSITIONS = 2048


class Solution:
    def rotary_embedding(self, q, k, positions, base):
        q = np.asarray(q, dtype=np.float64)
        k = np.asarray(k, dtype=np.float64)
        d = q.shape[-1]
        inv_freq = 1.0 / base ** (np.arange(0, d, 2, dtype=np.float64) / d)
        angles = np.outer(np.arange(MAX_POSITIONS, dtype=np.float64), inv_freq)
        table = np.concatenate([angles, angles], axis=-1)
        cos_cached, sin_cached = np.cos(table), np.sin(table)
        idx = np.asarray(positions, dtype=np.int64)
        cos, sin = cos_cached[idx], sin_cached[idx]

        def rotate_half(x):
            return np.concatenate([-x[..., d // 2:], x[..., : d // 2]], axis=-1)

        return np.stack([q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin])
