# Bug: the rotary table built for the model width (d_model / 2 frequencies) instead of one head's: its shape does not broadcast against a head's d_head / 2 columns unless there is one head (ValueError).
import numpy as np


def rms_norm(Z, g):
    return Z / np.sqrt(np.mean(Z * Z, axis=1, keepdims=True) + 1e-5) * g


def rope(Z, positions):
    """Rotate-half RoPE of Z (heads, T, d_head), its table built over the model width."""
    d = Z.shape[-1] * Z.shape[0]  # the model width instead of the head width
    half = d // 2
    angles = positions[:, None] * 10000.0 ** (-np.arange(half) * 2.0 / d)
    cos, sin = np.cos(angles), np.sin(angles)
    a, b = Z[..., :half], Z[..., half:]
    return np.concatenate([a * cos - b * sin, b * cos + a * sin], axis=-1)


class Solution:
    def llama_decoder_block(self, X, g_attn, W_Q, W_K, W_V, W_O, num_heads, num_kv_heads, g_ffn, W1, W2, W3):
        X = np.asarray(X, dtype=np.float64)
        T, d_model = X.shape
        d = d_model // num_heads
        positions = np.arange(T, dtype=np.float64)

        def heads(M, count):
            return M.reshape(T, count, d).transpose(1, 0, 2)

        A = rms_norm(X, np.asarray(g_attn, dtype=np.float64))
        q = rope(heads(A @ np.asarray(W_Q, dtype=np.float64), num_heads), positions)
        k = rope(heads(A @ np.asarray(W_K, dtype=np.float64), num_kv_heads), positions)
        v = heads(A @ np.asarray(W_V, dtype=np.float64), num_kv_heads)
        group = num_heads // num_kv_heads
        k, v = np.repeat(k, group, axis=0), np.repeat(v, group, axis=0)
        s = q @ k.transpose(0, 2, 1) / np.sqrt(d)
        s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
        p = np.exp(s - s.max(axis=-1, keepdims=True))
        p /= p.sum(axis=-1, keepdims=True)
        H = X + (p @ v).transpose(1, 0, 2).reshape(T, d_model) @ np.asarray(W_O, dtype=np.float64)

        B = rms_norm(H, np.asarray(g_ffn, dtype=np.float64))
        G = B @ np.asarray(W1, dtype=np.float64)
        with np.errstate(over="ignore"):
            silu = G / (1.0 + np.exp(-G))
        return H + (silu * (B @ np.asarray(W3, dtype=np.float64))) @ np.asarray(W2, dtype=np.float64)
