# Accepted: numpy loop over heads, each head on its own column blocks of Q, K, V (d_h wide) and of q_R (d_R wide), one shared rotated k_R.
import numpy as np


def rope(Z, positions):
    """Turn each pair of columns (2j, 2j+1) of row t by the angle positions[t] * 10000^(-2j/d_R)."""
    d_R = Z.shape[1]
    inv_freq = 1.0 / 10000.0 ** (np.arange(0, d_R, 2) / d_R)
    angle = positions[:, None] * inv_freq[None, :]
    cos, sin = np.cos(angle), np.sin(angle)
    even, odd = Z[:, 0::2], Z[:, 1::2]
    out = np.empty_like(Z)
    out[:, 0::2] = even * cos - odd * sin
    out[:, 1::2] = even * sin + odd * cos
    return out


class Solution:
    def multi_head_latent_attention(self, X, W_DKV, W_UK, W_UV, W_Q, W_QR, W_KR, num_heads, W_O):
        X = np.asarray(X, dtype=np.float64)
        T = X.shape[0]
        W_UK = np.asarray(W_UK, dtype=np.float64)
        W_KR = np.asarray(W_KR, dtype=np.float64)
        d_h = W_UK.shape[1] // num_heads
        d_R = W_KR.shape[1]
        positions = np.arange(T, dtype=np.float64)

        c = X @ np.asarray(W_DKV, dtype=np.float64)
        K = c @ W_UK
        V = c @ np.asarray(W_UV, dtype=np.float64)
        Q = X @ np.asarray(W_Q, dtype=np.float64)
        q_R_all = X @ np.asarray(W_QR, dtype=np.float64)
        k_R = rope(X @ W_KR, positions)
        scale = 1.0 / np.sqrt(d_h + d_R)

        H = np.empty((T, num_heads * d_h))
        for i in range(num_heads):
            cols = slice(i * d_h, (i + 1) * d_h)
            q_R = rope(q_R_all[:, i * d_R:(i + 1) * d_R], positions)
            s = (Q[:, cols] @ K[:, cols].T + q_R @ k_R.T) * scale
            s -= s.max(axis=1, keepdims=True)
            np.exp(s, out=s)
            s /= s.sum(axis=1, keepdims=True)
            H[:, cols] = s @ V[:, cols]

        return H @ np.asarray(W_O, dtype=np.float64)
