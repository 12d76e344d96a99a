# WRONG: one scale per head (per-tensor absmax over positions and channels) instead of one per (head, channel).
import numpy as np


class Solution:
    def kv_quant_roundtrip(self, K):
        K = np.asarray(K, dtype=np.float64)
        absmax = np.abs(K).max(axis=(1, 2), keepdims=True)
        scale = np.where(absmax > 0, absmax / 127, 1.0)
        return np.clip(np.round(K / scale), -127, 127) * scale
