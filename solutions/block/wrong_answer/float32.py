# WRONG: computed in float32 (inputs converted with np.float32): about 7 significant digits, not enough for a relative tolerance of 1e-6.
import numpy as np


def rms_norm(Z, g):
    return Z / np.sqrt(np.mean(Z * Z, axis=1, keepdims=True) + 1e-5) * g


def rotate_half(Z):
    half = Z.shape[-1] // 2
    return np.concatenate([-Z[..., half:], Z[..., :half]], axis=-1)


class Solution:
    def llama_decoder_block(self, X, g_attn, W_Q, W_K, W_V, W_O, num_heads, num_kv_heads, g_ffn, W1, W2, W3):
        X = np.asarray(X, dtype=np.float32)
        T, d_model = X.shape
        d = d_model // num_heads
        inv_freq = 1.0 / 10000.0 ** (np.arange(0, d, 2) / d)
        angles = np.arange(T)[:, None] * inv_freq
        cos = np.cos(np.concatenate([angles, angles], axis=1))  # (T, d)
        sin = np.sin(np.concatenate([angles, angles], axis=1))

        A = rms_norm(X, np.asarray(g_attn, dtype=np.float32))
        q = (A @ np.asarray(W_Q, dtype=np.float32)).reshape(T, num_heads, d).transpose(1, 0, 2)
        k = (A @ np.asarray(W_K, dtype=np.float32)).reshape(T, num_kv_heads, d).transpose(1, 0, 2)
        v = (A @ np.asarray(W_V, dtype=np.float32)).reshape(T, num_kv_heads, d).transpose(1, 0, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        group = num_heads // num_kv_heads
        k, v = np.repeat(k, group, axis=0), np.repeat(v, group, axis=0)
        s = q @ k.transpose(0, 2, 1) / np.sqrt(d)
        s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
        p = np.exp(s - s.max(axis=-1, keepdims=True))
        p /= p.sum(axis=-1, keepdims=True)
        H = X + (p @ v).transpose(1, 0, 2).reshape(T, d_model) @ np.asarray(W_O, dtype=np.float32)

        B = rms_norm(H, np.asarray(g_ffn, dtype=np.float32))
        G = B @ np.asarray(W1, dtype=np.float32)
        e = np.exp(-np.abs(G))
        silu = G * np.where(G >= 0, 1.0 / (1.0 + e), e / (1.0 + e))
        return H + (silu * (B @ np.asarray(W3, dtype=np.float32))) @ np.asarray(W2, dtype=np.float32)
