# ACCEPTED: columns permuted to the interleaved layout (i, i+d/2 side by side), turned as GPT-J's pairs (2i, 2i+1), permuted back.
import numpy as np


class Solution:
    def rotary_embedding(self, q, k, positions, base):
        x = np.asarray([q, k], dtype=np.float64)
        d = x.shape[-1]
        half = d // 2
        order = np.arange(d).reshape(2, half).T.reshape(-1)  # 0, h, 1, h+1, ...: Hugging Face's permute of W_Q, W_K
        y = x[..., order]
        inv_freq = np.power(float(base), -np.arange(half, dtype=np.float64) * 2.0 / d)
        angles = np.asarray(positions, dtype=np.float64)[:, None] * inv_freq
        cos, sin = np.cos(angles), np.sin(angles)
        even, odd = y[..., 0::2], y[..., 1::2]
        turned = np.empty_like(y)
        turned[..., 0::2] = even * cos - odd * sin
        turned[..., 1::2] = even * sin + odd * cos
        out = np.empty_like(turned)
        out[..., order] = turned
        return out
