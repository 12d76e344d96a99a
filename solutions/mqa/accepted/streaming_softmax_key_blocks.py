# Accepted: online (streaming) softmax over blocks of the shared keys, all query heads at once, with a running maximum, running sum and rescaled accumulator.
import numpy as np

BLOCK = 128


class Solution:
    def multi_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        X = np.asarray(X, dtype=np.float64)
        T, d_model = X.shape
        d_k = d_model // num_heads
        Q = X @ np.asarray(W_Q, dtype=np.float64) + np.asarray(b_Q, dtype=np.float64)
        Q = np.ascontiguousarray(Q.reshape(T, num_heads, d_k).transpose(1, 0, 2))  # (num_heads, T, d_k)
        K = X @ np.asarray(W_K, dtype=np.float64) + np.asarray(b_K, dtype=np.float64)  # (T, d_k)
        V = X @ np.asarray(W_V, dtype=np.float64) + np.asarray(b_V, dtype=np.float64)
        inv_sqrt_dk = 1.0 / np.sqrt(d_k)

        best = np.full((num_heads, T, 1), -np.inf)
        total = np.zeros((num_heads, T, 1))
        acc = np.zeros((num_heads, T, d_k))
        for k0 in range(0, T, BLOCK):
            s = Q @ K[k0:k0 + BLOCK].T  # (num_heads, T, block): the same keys for every head
            s *= inv_sqrt_dk
            new_best = np.maximum(best, s.max(axis=2, keepdims=True))
            keep = np.exp(best - new_best)  # 0 on the first block, where best = -inf
            s -= new_best
            np.exp(s, out=s)
            total = total * keep + s.sum(axis=2, keepdims=True)
            acc = acc * keep + s @ V[k0:k0 + BLOCK]
            best = new_best

        H = (acc / total).transpose(1, 0, 2).reshape(T, d_model)
        return (H @ np.asarray(W_O, dtype=np.float64) + np.asarray(b_O, dtype=np.float64)).tolist()
