# WRONG: the "full" int8 range: scale = absmax / 128 and clip to [-128, 127], so +absmax saturates at 127 (the full vs restricted range mix-up IntelLabs/distiller fixed in PR #463).
import numpy as np


class Solution:
    def kv_quant_roundtrip(self, K):
        K = np.asarray(K, dtype=np.float64)
        absmax = np.abs(K).max(axis=1, keepdims=True)
        scale = np.where(absmax > 0, absmax / 128, 1.0)
        return np.clip(np.round(K / scale), -128, 127) * scale
