# Accepted: online (streaming) softmax over blocks of keys with a running maximum, sum and rescaled accumulator; keys from the latent block by block, as a decoder reading its cache would.
import numpy as np

BLOCK = 64


class Solution:
    def multi_head_latent_attention(self, X, W_DKV, W_UK, W_UV, W_Q, W_QR, W_KR, num_heads, W_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        X, W_UK, W_UV = f(X), f(W_UK), f(W_UV)
        T = X.shape[0]
        d_h = W_UK.shape[1] // num_heads
        d_R = f(W_KR).shape[1]

        half = d_R // 2
        theta = 10000.0 ** (-(2.0 * np.arange(half)) / d_R)
        angle = np.arange(T)[:, None] * theta
        cos, sin = np.cos(angle), np.sin(angle)

        def rope(Z):
            a, b = Z[..., ::2], Z[..., 1::2]
            out = np.empty_like(Z)
            out[..., ::2] = a * cos - b * sin
            out[..., 1::2] = b * cos + a * sin
            return out

        Q = (X @ f(W_Q)).reshape(T, num_heads, d_h).transpose(1, 0, 2)
        q_R = rope((X @ f(W_QR)).reshape(T, num_heads, d_R).transpose(1, 0, 2))
        q = np.concatenate([Q, q_R], axis=2) / np.sqrt(d_h + d_R)  # prescaled queries
        c = X @ f(W_DKV)  # the cache: c and k_R
        k_R = rope(X @ f(W_KR))

        run_max = np.full((num_heads, T, 1), -np.inf)
        run_sum = np.zeros((num_heads, T, 1))
        acc = np.zeros((num_heads, T, d_h))
        for u0 in range(0, T, BLOCK):
            block = slice(u0, u0 + BLOCK)
            n = len(c[block])
            K = (c[block] @ W_UK).reshape(n, num_heads, d_h).transpose(1, 0, 2)
            V = (c[block] @ W_UV).reshape(n, num_heads, d_h).transpose(1, 0, 2)
            keys = np.concatenate([K, np.broadcast_to(k_R[block], (num_heads, n, d_R))], axis=2)
            s = np.matmul(q, keys.transpose(0, 2, 1))
            new_max = np.maximum(run_max, s.max(axis=2, keepdims=True))
            shrink = np.exp(run_max - new_max)  # 0 on the first block
            p = np.exp(s - new_max)
            run_sum = run_sum * shrink + p.sum(axis=2, keepdims=True)
            acc = acc * shrink + np.matmul(p, V)
            run_max = new_max

        H = (acc / run_sum).transpose(1, 0, 2).reshape(T, num_heads * d_h)
        return H @ f(W_O)
