# WRONG: the quotient cast straight to int8 (truncation toward zero) with no rounding, the bug sgl-project/sglang-jax fixed in PR #1598 and astramind-ai/BitMat in PR #13.
import numpy as np


class Solution:
    def kv_quant_roundtrip(self, K):
        K = np.asarray(K, dtype=np.float64)
        absmax = np.abs(K).max(axis=1, keepdims=True)
        scale = np.where(absmax > 0, absmax / 127, 1.0)
        q = np.clip(K / scale, -127, 127).astype(np.int8)
        return q * scale
