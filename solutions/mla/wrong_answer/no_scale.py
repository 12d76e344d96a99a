# Bug: the scores are never divided by sqrt(d_h + d_R).
import numpy as np


class Solution:
    def multi_head_latent_attention(self, X, W_DKV, W_UK, W_UV, W_Q, W_QR, W_KR, num_heads, W_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        X = f(X)
        T = X.shape[0]
        d_h = f(W_UK).shape[1] // num_heads
        d_R = f(W_KR).shape[1]

        def heads(M, width):  # (T, num_heads * width) -> (num_heads, T, width)
            return M.reshape(T, num_heads, width).transpose(1, 0, 2)

        inv_freq = 1.0 / 10000.0 ** (np.arange(0, d_R, 2) / d_R)
        angle = np.arange(T)[:, None] * inv_freq
        cos, sin = np.cos(angle), np.sin(angle)

        def rope(Z):
            a, b = Z[..., 0::2], Z[..., 1::2]
            out = np.empty_like(Z)
            out[..., 0::2] = a * cos - b * sin
            out[..., 1::2] = a * sin + b * cos
            return out

        c = X @ f(W_DKV)
        K, V = heads(c @ f(W_UK), d_h), heads(c @ f(W_UV), d_h)
        Q = heads(X @ f(W_Q), d_h)
        q_R = rope(heads(X @ f(W_QR), d_R))
        k_R = rope(X @ f(W_KR))

        S = Q @ K.transpose(0, 2, 1) + q_R @ k_R.T
        S -= S.max(axis=-1, keepdims=True)
        A = np.exp(S)
        A /= A.sum(axis=-1, keepdims=True)
        H = (A @ V).transpose(1, 0, 2).reshape(T, num_heads * d_h)
        return H @ f(W_O)
