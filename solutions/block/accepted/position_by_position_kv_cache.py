# Accepted: one position at a time as a decoder runs, appending its rotated key and value to a cache and attending over the cache (all heads at once).
import numpy as np


class Solution:
    def llama_decoder_block(self, X, g_attn, W_Q, W_K, W_V, W_O, num_heads, num_kv_heads, g_ffn, W1, W2, W3):
        X = np.asarray(X, dtype=np.float64)
        g_attn, g_ffn = np.asarray(g_attn, dtype=np.float64), np.asarray(g_ffn, dtype=np.float64)
        W_Q, W_K, W_V, W_O = (np.asarray(W, dtype=np.float64) for W in (W_Q, W_K, W_V, W_O))
        W1, W2, W3 = (np.asarray(W, dtype=np.float64) for W in (W1, W2, W3))
        T, d_model = X.shape
        d = d_model // num_heads
        half = d // 2
        group = num_heads // num_kv_heads
        inv_freq = 10000.0 ** (-np.arange(half) / half)
        keys = np.empty((num_kv_heads, T, d))
        values = np.empty((num_kv_heads, T, d))
        out = np.empty((T, d_model))
        for t in range(T):
            x = X[t]
            a = x / np.sqrt(x @ x / d_model + 1e-5) * g_attn
            c, s = np.cos(t * inv_freq), np.sin(t * inv_freq)

            def rope(z):  # (heads, d)
                lo, hi = z[:, :half], z[:, half:]
                return np.concatenate([lo * c - hi * s, hi * c + lo * s], axis=1)

            keys[:, t] = rope((a @ W_K).reshape(num_kv_heads, d))
            values[:, t] = (a @ W_V).reshape(num_kv_heads, d)
            q = rope((a @ W_Q).reshape(num_heads, d)).reshape(num_kv_heads, group, d)
            scores = np.einsum("hgd,hud->hgu", q, keys[:, :t + 1]) / np.sqrt(d)
            w = np.exp(scores - scores.max(axis=-1, keepdims=True))
            w /= w.sum(axis=-1, keepdims=True)
            h = x + np.einsum("hgu,hud->hgd", w, values[:, :t + 1]).reshape(d_model) @ W_O
            b = h / np.sqrt(h @ h / d_model + 1e-5) * g_ffn
            gate = b @ W1
            with np.errstate(over="ignore"):
                silu = gate / (1.0 + np.exp(-gate))
            out[t] = h + (silu * (b @ W3)) @ W2
        return out
