# WRONG: frequencies and angles in float32: at position 1e5 an angle is off by up to 4e-3 rad (EleutherAI/gpt-neox#1003, huggingface/transformers#29496 in fp16/bf16).
import numpy as np


class Solution:
    def rotary_embedding(self, q, k, positions, base):
        q = np.asarray(q, dtype=np.float64)
        k = np.asarray(k, dtype=np.float64)
        d = q.shape[-1]
        inv_freq = (1.0 / np.float32(base) ** (np.arange(0, d, 2, dtype=np.float32) / np.float32(d))).astype(np.float32)
        angles = np.outer(np.asarray(positions, dtype=np.float32), inv_freq).astype(np.float64)
        table = np.concatenate([angles, angles], axis=-1)
        cos, sin = np.cos(table), np.sin(table)

        def rotate_half(x):
            return np.concatenate([-x[..., d // 2:], x[..., : d // 2]], axis=-1)

        return np.stack([q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin])
