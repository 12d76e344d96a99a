# WRONG: gate and up swapped, silu(X W3) * (X W1); mlx-lm's SwiGLU wrapper did this (ml-explore/mlx-lm PR #767, mlx_lm/models/switch_layers.py: "silu(x) * gate instead of silu(gate) * x").
import numpy as np


class Solution:
    def swiglu_feed_forward(self, X, W1, W2, W3):
        X = np.asarray(X, dtype=np.float64)
        G = X @ np.asarray(W3, dtype=np.float64)
        U = X @ np.asarray(W1, dtype=np.float64)
        with np.errstate(over="ignore"):
            silu = G / (1.0 + np.exp(-G))
        return (silu * U) @ np.asarray(W2, dtype=np.float64)
