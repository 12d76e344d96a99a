# WRONG: floor(y + 0.5), ties toward +infinity (2.5 -> 3 but -2.5 -> -2), as tenstorrent/tt-metal issue #56525 reports of ttnn.quantize's int8 path.
import numpy as np


class Solution:
    def kv_quant_roundtrip(self, K):
        K = np.asarray(K, dtype=np.float64)
        absmax = np.abs(K).max(axis=1, keepdims=True)
        scale = np.where(absmax > 0, absmax / 127, 1.0)
        q = np.floor(K / scale + 0.5)
        return np.clip(q, -127, 127) * scale
