# WRONG: DeepSeek-V3's inference code ported as it is: RoPE (the rotary table and the turned q_R, k_R) and the softmax in float32, the rest in float64.
import numpy as np


class Solution:
    def multi_head_latent_attention(self, X, W_DKV, W_UK, W_UV, W_Q, W_QR, W_KR, num_heads, W_O):
        arr = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        X = arr(X)
        T = X.shape[0]
        d_h = arr(W_UK).shape[1] // num_heads
        d_R = arr(W_KR).shape[1]

        def split(M, width):  # (T, num_heads * width) -> (num_heads, T, width)
            return M.reshape(T, num_heads, width).transpose(1, 0, 2)

        # precompute_freqs_cis: the table in float32 (torch.polar of float32 angles is complex64).
        freqs = 1.0 / (10000.0 ** (np.arange(0, d_R, 2, dtype=np.float32) / np.float32(d_R)))
        angles = np.outer(np.arange(T, dtype=np.float32), freqs.astype(np.float32))
        freqs_cis = np.exp(1j * angles.astype(np.float32)).astype(np.complex64)  # (T, d_R / 2)

        def apply_rotary_emb(x):  # x.float() as complex pairs, times the table, back to x's dtype
            z = x.astype(np.float32).reshape(*x.shape[:-1], -1, 2)
            z = (z[..., 0] + 1j * z[..., 1]).astype(np.complex64) * freqs_cis
            out = np.stack([z.real, z.imag], axis=-1).reshape(x.shape)
            return out.astype(x.dtype)

        c = X @ arr(W_DKV)
        K = split(c @ arr(W_UK), d_h)
        V = split(c @ arr(W_UV), d_h)
        Q = split(X @ arr(W_Q), d_h)
        q_R = apply_rotary_emb(split(X @ arr(W_QR), d_R))  # (num_heads, T, d_R)
        k_R = apply_rotary_emb(X @ arr(W_KR))  # (T, d_R)

        scores = (Q @ K.transpose(0, 2, 1) + q_R @ k_R.T) / np.sqrt(d_h + d_R)
        # scores.softmax(dim=-1, dtype=torch.float32).type_as(x)
        s = scores.astype(np.float32)
        s -= s.max(axis=-1, keepdims=True)
        weights = np.exp(s)
        weights /= weights.sum(axis=-1, keepdims=True)
        weights = weights.astype(np.float64)

        H = (weights @ V).transpose(1, 0, 2).reshape(T, num_heads * d_h)
        return (H @ arr(W_O)).tolist()
