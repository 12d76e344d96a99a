# WRONG: the adapter scaled by alpha instead of alpha / r (r times too large), the bug of rasbt/LLMs-from-scratch issue #821 (appendix-E LoRALayer) and Blaizzy/mlx-vlm issue #845 (mlx_vlm/trainer/lora.py).
import numpy as np


class Solution:
    def lora_linear(self, X, W, b, A, B, alpha):
        X = np.asarray(X, dtype=np.float64)
        base = X @ np.asarray(W, dtype=np.float64) + np.asarray(b, dtype=np.float64)
        return base + alpha * ((X @ np.asarray(A, dtype=np.float64)) @ np.asarray(B, dtype=np.float64))
