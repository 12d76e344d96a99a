# TIME LIMIT: the channel's absmax recomputed for every element (O(h T^2 d)) instead of once per channel.
import numpy as np


class Solution:
    def kv_quant_roundtrip(self, K):
        K = np.asarray(K, dtype=np.float64)
        out = np.empty_like(K)
        heads, positions, channels = K.shape
        for i in range(heads):
            for t in range(positions):
                top = np.abs(K[i, :, :]).max(axis=0)
                scale = np.where(top > 0, top / 127, 1.0)
                out[i, t] = np.clip(np.round(K[i, t] / scale), -127, 127) * scale
        return out
