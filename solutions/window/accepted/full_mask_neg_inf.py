# Accepted: all heads at once with batched np.matmul; every score outside the band t - window < u <= t set to -inf before the softmax.
import numpy as np


class Solution:
    def sliding_window_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, window, W_O, b_O):
        arr = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        X = arr(X)
        T, d_model = X.shape
        d_k = d_model // num_heads

        def split(M):
            return M.reshape(T, num_heads, d_k).transpose(1, 0, 2)  # (num_heads, T, d_k)

        Q = split(X @ arr(W_Q) + arr(b_Q))
        K = split(X @ arr(W_K) + arr(b_K))
        V = split(X @ arr(W_V) + arr(b_V))

        A = np.matmul(Q, K.transpose(0, 2, 1))  # (num_heads, T, T)
        A /= np.sqrt(d_k)
        offset = np.arange(T)[:, None] - np.arange(T)[None, :]  # t - u
        A[:, (offset < 0) | (offset >= window)] = -np.inf  # later keys, and keys window or more back
        A -= A.max(axis=2, keepdims=True)  # the diagonal is visible: every maximum is finite
        np.exp(A, out=A)
        A /= A.sum(axis=2, keepdims=True)

        H = np.matmul(A, V).transpose(1, 0, 2).reshape(T, d_model)
        return (H @ arr(W_O) + arr(b_O)).tolist()
