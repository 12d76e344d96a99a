# WRONG: GPT-J / Meta's original llama convention: pairs (2i, 2i+1) turned instead of (i, i+d/2) (the mismatch of huggingface/transformers#25199).
import numpy as np


class Solution:
    def rotary_embedding(self, q, k, positions, base):
        x = np.asarray([q, k], dtype=np.float64)
        d = x.shape[-1]
        inv_freq = 1.0 / base ** (np.arange(0, d, 2, dtype=np.float64) / d)
        angles = np.outer(np.asarray(positions, dtype=np.float64), inv_freq)
        cos, sin = np.cos(angles), np.sin(angles)
        even, odd = x[..., 0::2], x[..., 1::2]
        out = np.empty_like(x)
        out[..., 0::2] = even * cos - odd * sin
        out[..., 1::2] = even * sin + odd * cos
        return out
