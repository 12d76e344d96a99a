# WRONG: divides by the reciprocal root, x / rsqrt(ms + eps) = x * sqrt(ms + eps): mosaicml/llm-foundry#371 (llmfoundry/models/layers/norm.py).
import numpy as np


class Solution:
    def rms_norm(self, X, gamma, eps):
        X = np.asarray(X, dtype=np.float64)
        rsqrt = 1.0 / np.sqrt(np.mean(X * X, axis=-1, keepdims=True) + eps)
        return X / rsqrt * np.asarray(gamma)
