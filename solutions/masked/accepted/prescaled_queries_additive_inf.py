# Accepted: queries scaled by 1/sqrt(d_k) before the product, the mask turned into an additive bias of 0 / -inf, and the softmax normalised after multiplying by V.
import numpy as np


class Solution:
    def masked_attention(self, q, k, v, mask, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        q, k, v = (np.asarray(x, dtype=np.float64) for x in (q, k, v))
        B, T_q, d_model = q.shape
        T_k = k.shape[1]
        d_k = d_model // num_heads

        def split(M, T):
            return M.reshape(B, T, num_heads, d_k).transpose(0, 2, 1, 3)

        Q = split((q @ np.asarray(W_Q, float) + np.asarray(b_Q, float)) / np.sqrt(d_k), T_q)
        K = split(k @ np.asarray(W_K, float) + np.asarray(b_K, float), T_k)
        V = split(v @ np.asarray(W_V, float) + np.asarray(b_V, float), T_k)

        # -inf, not -1e9: a finite penalty loses to scores that are themselves beyond 1e9.
        bias = np.where(np.asarray(mask) == 1, -np.inf, 0.0)[:, None]  # (B, 1, T_q, T_k)
        S = Q @ K.transpose(0, 1, 3, 2) + bias
        P = np.exp(S - S.max(axis=-1, keepdims=True))
        H = (P @ V) / P.sum(axis=-1, keepdims=True)
        return H.transpose(0, 2, 1, 3).reshape(B, T_q, d_model) @ np.asarray(W_O, float) + np.asarray(b_O, float)
