# TIME LIMIT: cos/sin tables built for every position from 0 to the largest one (a rotary cache), then indexed: O(max(positions) * d) instead of O(T * d).
import numpy as np


class Solution:
    def rotary_embedding(self, q, k, positions, base):
        q = np.asarray(q, dtype=np.float64)
        k = np.asarray(k, dtype=np.float64)
        d = q.shape[-1]
        idx = np.asarray(positions, dtype=np.int64)
        inv_freq = 1.0 / base ** (np.arange(0, d, 2, dtype=np.float64) / d)
        angles = np.outer(np.arange(idx.max() + 1, dtype=np.float64), inv_freq)  # every position up to the largest
        cos_cached, sin_cached = np.cos(angles), np.sin(angles)
        cos, sin = cos_cached[idx], sin_cached[idx]
        cos, sin = np.concatenate([cos, cos], axis=-1), np.concatenate([sin, sin], axis=-1)

        def rotate_half(x):
            return np.concatenate([-x[..., d // 2:], x[..., : d // 2]], axis=-1)

        return np.stack([q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin])
