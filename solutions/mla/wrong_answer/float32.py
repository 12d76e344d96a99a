# WRONG: computes in float32 instead of float64: every score is rounded by about |score| * 6e-8 and the rotary angles t * theta by up to 3e-5 rad at t = 511, which moves rows whose top keys nearly tie.
import numpy as np


class Solution:
    def multi_head_latent_attention(self, X, W_DKV, W_UK, W_UV, W_Q, W_QR, W_KR, num_heads, W_O):
        arr = lambda a: np.asarray(a, dtype=np.float32)  # noqa: E731
        X = arr(X)
        T = X.shape[0]
        d_h = arr(W_UK).shape[1] // num_heads
        d_R = arr(W_KR).shape[1]

        def split(M, width):  # (T, num_heads * width) -> (num_heads, T, width)
            return M.reshape(T, num_heads, width).transpose(1, 0, 2)

        theta = np.float32(10000.0) ** (-np.arange(d_R // 2, dtype=np.float32) * np.float32(2.0 / d_R))
        angle = np.outer(np.arange(T, dtype=np.float32), theta)  # (T, d_R / 2)
        cos = np.repeat(np.cos(angle), 2, axis=1)  # (T, d_R): each pair's cosine twice
        sin = np.repeat(np.sin(angle), 2, axis=1)

        def rotate(Z):  # rotate_half for interleaved pairs: (a, b) -> (-b, a)
            turned = np.empty_like(Z)
            turned[..., 0::2] = -Z[..., 1::2]
            turned[..., 1::2] = Z[..., 0::2]
            return Z * cos + turned * sin

        c = X @ arr(W_DKV)
        K = split(c @ arr(W_UK), d_h)
        V = split(c @ arr(W_UV), d_h)
        Q = split(X @ arr(W_Q), d_h)
        q_R = rotate(split(X @ arr(W_QR), d_R))
        k_R = rotate(X @ arr(W_KR))

        queries = np.concatenate([Q, q_R], axis=2)  # (num_heads, T, d_h + d_R)
        keys = np.concatenate([K, np.broadcast_to(k_R, (num_heads, T, d_R))], axis=2)
        A = np.matmul(queries, keys.transpose(0, 2, 1)) / np.float32(np.sqrt(d_h + d_R))
        A -= A.max(axis=2, keepdims=True)
        np.exp(A, out=A)
        A /= A.sum(axis=2, keepdims=True)

        H = np.matmul(A, V).transpose(1, 0, 2).reshape(T, num_heads * d_h)
        return (H @ arr(W_O)).tolist()
