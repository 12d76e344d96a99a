# Accepted: a loop over key/value heads with their group of query heads stacked (no repeat), RoPE as a complex multiplication (first half real, second half imaginary).
import numpy as np


def rms_norm(Z, g):
    return Z * (1.0 / np.sqrt(np.square(Z).sum(axis=1, keepdims=True) / Z.shape[1] + 1e-5)) * g


class Solution:
    def llama_decoder_block(self, X, g_attn, W_Q, W_K, W_V, W_O, num_heads, num_kv_heads, g_ffn, W1, W2, W3):
        X = np.asarray(X, dtype=np.float64)
        T, d_model = X.shape
        d = d_model // num_heads
        half = d // 2
        theta = np.exp(-np.log(10000.0) * np.arange(half) * 2.0 / d)
        turn = np.exp(1j * np.arange(T)[:, None] * theta)  # (T, half): e^{i t theta_j}

        def rope(Z):  # (..., T, d)
            z = (Z[..., :half] + 1j * Z[..., half:]) * turn
            return np.concatenate([z.real, z.imag], axis=-1)

        A = rms_norm(X, np.asarray(g_attn, dtype=np.float64))
        Q = A @ np.asarray(W_Q, dtype=np.float64)
        K = A @ np.asarray(W_K, dtype=np.float64)
        V = A @ np.asarray(W_V, dtype=np.float64)
        group = num_heads // num_kv_heads
        visible = np.tril(np.ones((T, T), dtype=bool))
        heads_out = np.empty((T, d_model))
        for j in range(num_kv_heads):
            k = rope(K[:, j * d:(j + 1) * d])
            v = V[:, j * d:(j + 1) * d]
            cols = slice(j * group * d, (j + 1) * group * d)  # the query heads j*group .. (j+1)*group - 1
            q = rope(Q[:, cols].reshape(T, group, d).transpose(1, 0, 2))  # (group, T, d)
            s = np.where(visible, q @ k.T / np.sqrt(d), -np.inf)
            s -= s.max(axis=-1, keepdims=True)
            p = np.exp(s)
            p /= p.sum(axis=-1, keepdims=True)
            heads_out[:, cols] = (p @ v).transpose(1, 0, 2).reshape(T, group * d)
        H = X + heads_out @ np.asarray(W_O, dtype=np.float64)

        B = rms_norm(H, np.asarray(g_ffn, dtype=np.float64))
        G = B @ np.asarray(W1, dtype=np.float64)
        silu = G * np.exp(-np.logaddexp(0.0, -G))
        return (H + (silu * (B @ np.asarray(W3, dtype=np.float64))) @ np.asarray(W2, dtype=np.float64)).tolist()
