# WRONG: computes in float32 (a half-precision model's kernel upcasts only to float32): 7 digits, 60 tolerances of 1e-9 off.
import numpy as np


class Solution:
    def rms_norm(self, X, gamma, eps):
        X = np.asarray(X, dtype=np.float32)
        mean_square = np.mean(X * X, axis=-1, keepdims=True)
        return X / np.sqrt(mean_square + np.float32(eps)) * np.asarray(gamma, dtype=np.float32)
