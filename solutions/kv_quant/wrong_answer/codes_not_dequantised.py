# WRONG: returns the int8 codes q themselves, never multiplied back by the scale.
import numpy as np


class Solution:
    def kv_quant_roundtrip(self, K):
        K = np.asarray(K, dtype=np.float64)
        absmax = np.abs(K).max(axis=1, keepdims=True)
        scale = np.where(absmax > 0, absmax / 127, 1.0)
        return np.clip(np.round(K / scale), -127, 127)
