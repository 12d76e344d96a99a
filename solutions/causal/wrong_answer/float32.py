# WRONG: computes in float32 instead of float64: every score is rounded by about |score| * 6e-8, which moves a soft softmax whose scores are large.
import numpy as np


class Solution:
    def causal_self_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        arr = lambda a: np.asarray(a, dtype=np.float32)  # noqa: E731
        X = arr(X)
        T, d_model = X.shape
        d_k = d_model // num_heads

        def split(M):
            return M.reshape(T, num_heads, d_k).transpose(1, 0, 2)  # (num_heads, T, d_k)

        Q = split(X @ arr(W_Q) + arr(b_Q))
        K = split(X @ arr(W_K) + arr(b_K))
        V = split(X @ arr(W_V) + arr(b_V))

        A = np.matmul(Q, K.transpose(0, 2, 1))  # (num_heads, T, T)
        A /= np.float32(np.sqrt(d_k))
        rows, cols = np.triu_indices(T, k=1)  # every (t, u) with u > t
        A[:, rows, cols] = -np.inf
        A -= A.max(axis=2, keepdims=True)
        np.exp(A, out=A)
        A /= A.sum(axis=2, keepdims=True)

        H = np.matmul(A, V).transpose(1, 0, 2).reshape(T, d_model)
        return (H @ arr(W_O) + arr(b_O)).tolist()
