# WRONG: num_heads ignored: one attention over all d_model columns (still scaled by 1/sqrt(d_k)) instead of num_heads heads.
import numpy as np


class Solution:
    def multi_head_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        X = np.asarray(X, dtype=np.float64)
        T, d_model = X.shape
        d_k = d_model // num_heads
        WQ, WK, WV, WO = (np.asarray(W, dtype=np.float64) for W in (W_Q, W_K, W_V, W_O))
        bQ, bK, bV, bO = (np.asarray(b, dtype=np.float64) for b in (b_Q, b_K, b_V, b_O))

        def split(M):
            # (T, d_model) -> (1, T, d_model): a single head
            return M[None]

        Q = split(X @ WQ + bQ)
        K = split(X @ WK + bK)
        V = split(X @ WV + bV)

        scores = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)  # (1, T, T)
        scores -= scores.max(axis=2, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=2, keepdims=True)
        heads = weights @ V  # (1, T, d_model)

        H = heads[0]
        O = H @ WO + bO
        return O.tolist()
