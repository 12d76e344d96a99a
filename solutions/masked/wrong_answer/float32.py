# WRONG: computes in float32 instead of float64: every score is rounded by about |score| * 6e-8, which moves a soft softmax whose scores are large.
import numpy as np


class Solution:
    def masked_attention(self, q, k, v, mask, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        arr = lambda a: np.asarray(a, dtype=np.float32)  # noqa: E731
        q, k, v = arr(q), arr(k), arr(v)
        B, T_q, d_model = q.shape
        T_k = k.shape[1]
        d_k = d_model // num_heads

        def split(x, T):  # (B, T, d_model) -> (B, num_heads, T, d_k)
            return x.reshape(B, T, num_heads, d_k).transpose(0, 2, 1, 3)

        Q = split(q @ arr(W_Q) + arr(b_Q), T_q)
        K = split(k @ arr(W_K) + arr(b_K), T_k)
        V = split(v @ arr(W_V) + arr(b_V), T_k)

        scores = np.matmul(Q, K.transpose(0, 1, 3, 2)) / np.float32(np.sqrt(d_k))  # (B, num_heads, T_q, T_k)
        hidden = np.asarray(mask, dtype=bool)[:, None]
        scores = np.where(hidden, np.float32(-np.inf), scores)
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)

        H = np.matmul(weights, V).transpose(0, 2, 1, 3).reshape(B, T_q, d_model)
        return (H @ arr(W_O) + arr(b_O)).tolist()
