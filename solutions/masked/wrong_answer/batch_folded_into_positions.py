# WRONG: batch axis folded into the positions: the B sequences are concatenated into one, so a query also attends to the keys of the other batch items (its mask row repeated for each of them).
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
            # (N, d_model) -> (N, num_heads, d_k) -> (num_heads, N, d_k)
            return M.reshape(M.shape[0], num_heads, d_k).transpose(1, 0, 2)

        # (B, T, d_model) -> (B * T, d_model): all batch items as one long sequence
        Q = split((q @ WQ + bQ).reshape(B * T_q, d_model))
        K = split((k @ WK + bK).reshape(B * T_k, d_model))
        V = split((v @ WV + bV).reshape(B * T_k, d_model))
        scores = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)  # (num_heads, B * T_q, B * T_k)
        hidden = np.tile(mask.reshape(B * T_q, T_k), (1, B)) == 1  # (B * T_q, B * T_k)
        scores = np.where(hidden, -np.inf, scores)
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        heads = weights @ V  # (num_heads, B * T_q, d_k)

        # (num_heads, B * T_q, d_k) -> (B * T_q, num_heads, d_k) -> (B, T_q, d_model)
        H = heads.transpose(1, 0, 2).reshape(B, T_q, d_model)
        O = H @ WO + bO
        return O.tolist()
