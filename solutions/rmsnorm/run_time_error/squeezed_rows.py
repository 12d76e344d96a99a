# RUN-TIME ERROR: squeezes X, so a single row (N = 1) or a single feature (d = 1) loses an axis and axis=1 no longer exists.
import numpy as np


class Solution:
    def rms_norm(self, X, gamma, eps):
        X = np.squeeze(np.asarray(X, dtype=np.float64))
        return X / np.sqrt(np.mean(X * X, axis=1, keepdims=True) + eps) * np.asarray(gamma)
