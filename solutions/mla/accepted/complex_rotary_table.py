# Accepted: RoPE as complex multiplication: each pair (2j, 2j+1) is the complex number a + ib, multiplied by a precomputed table exp(i t theta_j).
import numpy as np


class Solution:
    def multi_head_latent_attention(self, X, W_DKV, W_UK, W_UV, W_Q, W_QR, W_KR, num_heads, W_O):
        X = np.asarray(X, dtype=np.float64)
        T = X.shape[0]
        W_UK = np.asarray(W_UK, dtype=np.float64)
        d_R = len(W_KR[0])
        d_h = W_UK.shape[1] // num_heads

        theta = np.power(10000.0, -2.0 * np.arange(d_R // 2) / d_R)
        table = np.exp(1j * np.arange(T)[:, None] * theta)  # (T, d_R / 2) unit complex numbers

        def rope(Z):  # (..., T, d_R) real -> rotated real
            z = Z[..., 0::2] + 1j * Z[..., 1::2]
            z = z * table
            out = np.empty(Z.shape)
            out[..., 0::2], out[..., 1::2] = z.real, z.imag
            return out

        c = X @ np.asarray(W_DKV, dtype=np.float64)
        K = (c @ W_UK).reshape(T, num_heads, d_h)
        V = (c @ np.asarray(W_UV, dtype=np.float64)).reshape(T, num_heads, d_h)
        Q = (X @ np.asarray(W_Q, dtype=np.float64)).reshape(T, num_heads, d_h)
        q_R = rope((X @ np.asarray(W_QR, dtype=np.float64)).reshape(T, num_heads, d_R).swapaxes(0, 1))
        k_R = rope(X @ np.asarray(W_KR, dtype=np.float64))

        scores = np.einsum("thd,uhd->htu", Q, K, optimize=True) + q_R @ k_R.T
        scores /= np.sqrt(d_h + d_R)
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        scores /= scores.sum(axis=-1, keepdims=True)
        H = np.einsum("htu,uhd->thd", scores, V, optimize=True).reshape(T, num_heads * d_h)
        return H @ np.asarray(W_O, dtype=np.float64)
