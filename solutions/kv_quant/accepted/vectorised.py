# ACCEPTED: one absmax per (head, channel) over the positions, np.round (half to even), clip, multiply back.
import numpy as np


class Solution:
    def kv_quant_roundtrip(self, K):
        K = np.asarray(K, dtype=np.float64)
        absmax = np.abs(K).max(axis=1, keepdims=True)
        scale = np.where(absmax > 0, absmax / 127, 1.0)
        q = np.clip(np.round(K / scale), -127, 127)
        return q * scale
