# WRONG: mask by adding -1e10 to the scores outside the band: the constraints let scores reach about 1e14 in magnitude, so a hidden key can still win.
import numpy as np


class Solution:
    def sliding_window_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, window, W_O, b_O):
        X = np.asarray(X, dtype=np.float64)
        T, d_model = X.shape
        d_k = d_model // num_heads
        WQ, WK, WV, WO = (np.asarray(W, dtype=np.float64) for W in (W_Q, W_K, W_V, W_O))
        bQ, bK, bV, bO = (np.asarray(b, dtype=np.float64) for b in (b_Q, b_K, b_V, b_O))

        def split(M):
            # (T, d_model) -> (T, num_heads, d_k) -> (num_heads, T, d_k)
            return M.reshape(T, num_heads, d_k).transpose(1, 0, 2)

        Q = split(X @ WQ + bQ)
        K = split(X @ WK + bK)
        V = split(X @ WV + bV)

        scores = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)  # (num_heads, T, T)
        offset = np.arange(T)[:, None] - np.arange(T)[None, :]  # t - u
        scores += -1e10 * ((offset < 0) | (offset >= window))
        scores -= scores.max(axis=2, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=2, keepdims=True)
        heads = weights @ V  # (num_heads, T, d_k)

        # (num_heads, T, d_k) -> (T, num_heads, d_k) -> (T, d_model)
        H = heads.transpose(1, 0, 2).reshape(T, d_model)
        O = H @ WO + bO
        return O.tolist()
