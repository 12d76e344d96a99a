# Accepted: queries scaled by 1/sqrt(d_k) before the product (another rounding order), an additive mask of 0 inside the band and -inf outside, softmax normalised after multiplying by V.
import numpy as np


class Solution:
    def sliding_window_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, window, W_O, b_O):
        X = np.asarray(X, dtype=np.float64)
        T, d_model = X.shape
        d_k = d_model // num_heads

        def split(M):
            return M.reshape(T, num_heads, d_k).transpose(1, 0, 2)

        Q = split((X @ np.asarray(W_Q, float) + np.asarray(b_Q, float)) / np.sqrt(d_k))
        K = split(X @ np.asarray(W_K, float) + np.asarray(b_K, float))
        V = split(X @ np.asarray(W_V, float) + np.asarray(b_V, float))
        # 0 on the band (the lower triangle minus the one below its w - 1 sub-diagonals), -inf elsewhere.
        band = np.tril(np.ones((T, T), dtype=bool)) & ~np.tril(np.ones((T, T), dtype=bool), k=-window)
        mask = np.where(band, 0.0, -np.inf)
        S = Q @ K.transpose(0, 2, 1) + mask
        P = np.exp(S - S.max(axis=-1, keepdims=True))
        H = (P @ V) / P.sum(axis=-1, keepdims=True)
        return H.transpose(1, 0, 2).reshape(T, d_model) @ np.asarray(W_O, float) + np.asarray(b_O, float)
