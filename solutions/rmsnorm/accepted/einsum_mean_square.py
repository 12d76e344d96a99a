# ACCEPTED: the sums of squares as one einsum (a row's dot product with itself), then a broadcast division.
import numpy as np


class Solution:
    def rms_norm(self, X, gamma, eps):
        X = np.asarray(X, dtype=np.float64)
        mean_square = np.einsum("ij,ij->i", X, X) / X.shape[1]
        return X / np.sqrt(mean_square + eps)[:, None] * np.asarray(gamma, dtype=np.float64)[None, :]
