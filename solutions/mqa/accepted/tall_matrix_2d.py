# Accepted: with one shared K/V head, every (position, query head) pair is one row of a tall (T*num_heads, d_k) matrix, so attention is plain 2-D matrix algebra.
import numpy as np


class Solution:
    def multi_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        arr = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        X = arr(X)
        T, d_model = X.shape
        d_k = d_model // num_heads

        # Row t of Q holds heads 0..num_heads-1 side by side, so a plain reshape lists the
        # pairs (t, head) in row-major order; the inverse reshape puts the heads back.
        rows = (X @ arr(W_Q) + arr(b_Q)).reshape(T * num_heads, d_k)
        K = X @ arr(W_K) + arr(b_K)
        V = X @ arr(W_V) + arr(b_V)

        P = rows @ K.T  # (T*num_heads, T)
        P /= np.sqrt(d_k)
        P -= P.max(axis=1, keepdims=True)
        np.exp(P, out=P)
        P /= P.sum(axis=1, keepdims=True)

        H = (P @ V).reshape(T, d_model)
        return (H @ arr(W_O) + arr(b_O)).tolist()
