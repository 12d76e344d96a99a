# RUN-TIME ERROR: reads K.shape as if the cache were a numpy array, but it arrives as nested Python lists (AttributeError).
import numpy as np


class Solution:
    def kv_quant_roundtrip(self, K):
        heads, positions, channels = K.shape
        absmax = np.abs(np.asarray(K)).max(axis=1, keepdims=True)
        scale = np.where(absmax > 0, absmax / 127, 1.0)
        return np.clip(np.round(np.asarray(K) / scale), -127, 127) * scale
