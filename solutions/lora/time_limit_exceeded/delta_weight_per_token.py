# TIME LIMIT: the (d_in, d_out) delta weight A B formed again for every token, O(T d_in r d_out) instead of O(T r (d_in + d_out)).
import numpy as np


class Solution:
    def lora_linear(self, X, W, b, A, B, alpha):
        X = np.asarray(X, dtype=np.float64)
        W = np.asarray(W, dtype=np.float64)
        A = np.asarray(A, dtype=np.float64)
        B = np.asarray(B, dtype=np.float64)
        s = alpha / A.shape[1]
        rows = []
        for x in X:
            delta = np.zeros_like(W)
            for k in range(A.shape[1]):
                delta += np.outer(A[:, k], B[k])
            rows.append(x @ (W + s * delta) + b)
        return np.array(rows)
