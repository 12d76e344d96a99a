# WRONG: the one-pass variance E[x^2] - E[x]^2, which cancels catastrophically for rows far from 0 (tracel-ai/burn#5607's fused layer_norm; pytorch/pytorch#40302 on LayerNorm's old kernels).
import numpy as np


class Solution:
    def layer_norm(self, X, gamma, beta, eps):
        X = np.asarray(X, dtype=np.float64)
        mean = X.mean(axis=-1, keepdims=True)
        variance = np.mean(X * X, axis=-1, keepdims=True) - mean * mean
        return (X - mean) / np.sqrt(np.maximum(variance, 0.0) + eps) * np.asarray(gamma) + np.asarray(beta)
