# WRONG: the channel's largest value instead of its largest magnitude, max(x) for max(|x|): a channel led by negative values gets a wrong (even negative) scale, the slip microsoft/onnxruntime PR #11339 discusses.
import numpy as np


class Solution:
    def kv_quant_roundtrip(self, K):
        K = np.asarray(K, dtype=np.float64)
        top = K.max(axis=1, keepdims=True)
        scale = np.where(top != 0, top / 127, 1.0)
        return np.clip(np.round(K / scale), -127, 127) * scale
