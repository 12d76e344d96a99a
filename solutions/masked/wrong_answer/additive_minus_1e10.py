# WRONG: masks by adding -1e10 * mask to the scores: the constraints let scores reach about 1e14 in magnitude, so a hidden key can still win the softmax.
import numpy as np


class Solution:
    def masked_attention(self, q, k, v, mask, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        q, k, v = (np.asarray(x, dtype=np.float64) for x in (q, k, v))
        B, T_q, d_model = q.shape
        T_k = k.shape[1]
        d_k = d_model // num_heads
        WQ, WK, WV, WO = (np.asarray(W, dtype=np.float64) for W in (W_Q, W_K, W_V, W_O))
        bQ, bK, bV, bO = (np.asarray(b, dtype=np.float64) for b in (b_Q, b_K, b_V, b_O))
        mask = np.asarray(mask)

        def split(M):
            # (B, T, d_model) -> (B, T, num_heads, d_k) -> (B, num_heads, T, d_k)
            return M.reshape(B, M.shape[1], num_heads, d_k).transpose(0, 2, 1, 3)

        Q = split(q @ WQ + bQ)
        K = split(k @ WK + bK)
        V = split(v @ WV + bV)
        scores = Q @ K.transpose(0, 1, 3, 2) / np.sqrt(d_k)  # (B, num_heads, T_q, T_k)
        scores = scores + mask[:, None] * -1e10  # a large negative number on the hidden keys
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        heads = weights @ V  # (B, num_heads, T_q, d_k)

        # (B, num_heads, T_q, d_k) -> (B, T_q, num_heads, d_k) -> (B, T_q, d_model)
        H = heads.transpose(0, 2, 1, 3).reshape(B, T_q, d_model)
        O = H @ WO + bO
        return O.tolist()
