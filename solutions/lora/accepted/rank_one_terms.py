# ACCEPTED: the adapter as a sum of r rank-one updates, (X a_k) b_k^T for each column a_k of A and row b_k of B, each scaled by alpha / r.
import numpy as np


class Solution:
    def lora_linear(self, X, W, b, A, B, alpha):
        X = np.asarray(X, dtype=np.float64)
        A = np.asarray(A, dtype=np.float64)
        B = np.asarray(B, dtype=np.float64)
        r = A.shape[1]
        out = X @ np.asarray(W, dtype=np.float64) + np.asarray(b, dtype=np.float64)
        for k in range(r):
            out += (alpha / r) * np.outer(X @ A[:, k], B[k])
        return out
