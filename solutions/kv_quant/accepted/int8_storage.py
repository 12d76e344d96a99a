# ACCEPTED: as a cache stores it: the codes kept as np.int8 from np.rint (half to even) of K times the reciprocal scale, and a float scale per channel for dequantising.
import numpy as np


class Solution:
    def kv_quant_roundtrip(self, K):
        K = np.asarray(K, dtype=np.float64)
        absmax = np.max(np.abs(K), axis=1, keepdims=True)
        safe = np.where(absmax == 0, 127.0, absmax)  # a zero channel: scale 1, its codes all 0
        codes = np.clip(np.rint(K * (127 / safe)), -127, 127).astype(np.int8)
        return codes.astype(np.float64) * (safe / 127)
