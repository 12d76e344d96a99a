# Accepted: online (streaming) softmax, keys visited in blocks with a running maximum, running sum and rescaled accumulator, all heads at once.
import numpy as np

BLOCK = 96


class Solution:
    def multi_head_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        X = np.asarray(X, dtype=np.float64)
        T, d_model = X.shape
        d_k = d_model // num_heads

        def heads(W, b):
            M = X @ np.asarray(W, dtype=np.float64) + np.asarray(b, dtype=np.float64)
            return np.ascontiguousarray(M.reshape(T, num_heads, d_k).transpose(1, 0, 2))

        Q, K, V = heads(W_Q, b_Q), heads(W_K, b_K), heads(W_V, b_V)
        inv_sqrt_dk = 1.0 / np.sqrt(d_k)

        run_max = np.full((num_heads, T, 1), -np.inf)
        run_sum = np.zeros((num_heads, T, 1))
        acc = np.zeros((num_heads, T, d_k))
        for k0 in range(0, T, BLOCK):
            s = np.matmul(Q, K[:, k0:k0 + BLOCK].transpose(0, 2, 1))
            s *= inv_sqrt_dk
            new_max = np.maximum(run_max, s.max(axis=2, keepdims=True))
            shrink = np.exp(run_max - new_max)  # 0 on the first block, where run_max = -inf
            s -= new_max
            np.exp(s, out=s)
            run_sum = run_sum * shrink + s.sum(axis=2, keepdims=True)
            acc = acc * shrink + np.matmul(s, V[:, k0:k0 + BLOCK])
            run_max = new_max

        H = (acc / run_sum).transpose(1, 0, 2).reshape(T, d_model)
        return H @ np.asarray(W_O, dtype=np.float64) + np.asarray(b_O, dtype=np.float64)
