# WRONG: the adapter merged as W + A B with no alpha / r, the merge_lora_weights bug hao-ai-lab/FastVideo fixed in PR #870 (fastvideo/layers/lora/linear.py).
import numpy as np


class Solution:
    def lora_linear(self, X, W, b, A, B, alpha):
        merged = np.asarray(W, dtype=np.float64) + np.asarray(A, dtype=np.float64) @ np.asarray(B, dtype=np.float64)
        return np.asarray(X, dtype=np.float64) @ merged + np.asarray(b, dtype=np.float64)
