# TIME LIMIT: a Python loop over every element calling np.round and np.clip on one number at a time: h T d calls of microseconds each, where one call on the whole cache does it.
import numpy as np


class Solution:
    def kv_quant_roundtrip(self, K):
        K = np.asarray(K, dtype=np.float64)
        absmax = np.abs(K).max(axis=1)
        out = np.empty_like(K)
        heads, positions, channels = K.shape
        for i in range(heads):
            for t in range(positions):
                for c in range(channels):
                    scale = absmax[i, c] / 127 if absmax[i, c] > 0 else 1.0
                    out[i, t, c] = np.clip(np.round(K[i, t, c] / scale), -127, 127) * scale
        return out
