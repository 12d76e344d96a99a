# Accepted: online (streaming) softmax over key blocks for each query block, all heads at once; key blocks wholly after the query block are skipped, the diagonal block masked with -inf.
import numpy as np

BLOCK = 64


class Solution:
    def causal_self_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        X = np.asarray(X, dtype=np.float64)
        T, d_model = X.shape
        d_k = d_model // num_heads

        def heads(W, b):
            M = X @ np.asarray(W, dtype=np.float64) + np.asarray(b, dtype=np.float64)
            return np.ascontiguousarray(M.reshape(T, num_heads, d_k).transpose(1, 0, 2))

        Q, K, V = heads(W_Q, b_Q), heads(W_K, b_K), heads(W_V, b_V)
        inv_sqrt_dk = 1.0 / np.sqrt(d_k)

        H = np.empty((num_heads, T, d_k))
        for q0 in range(0, T, BLOCK):
            q1 = min(q0 + BLOCK, T)
            q = Q[:, q0:q1]
            run_max = np.full((num_heads, q1 - q0, 1), -np.inf)
            run_sum = np.zeros((num_heads, q1 - q0, 1))
            acc = np.zeros((num_heads, q1 - q0, d_k))
            for k0 in range(0, q1, BLOCK):  # blocks starting at or after q1 hold only later keys
                k1 = min(k0 + BLOCK, T)
                s = np.matmul(q, K[:, k0:k1].transpose(0, 2, 1))
                s *= inv_sqrt_dk
                if k1 > q0 + 1:  # some key of this block comes after some query of the block
                    later = np.arange(k0, k1)[None, :] > np.arange(q0, q1)[:, None]
                    s[:, later] = -np.inf
                # Key k0 <= t is visible to every row here, so the first block gives a finite maximum.
                new_max = np.maximum(run_max, s.max(axis=2, keepdims=True))
                shrink = np.exp(run_max - new_max)  # 0 on the first block, where run_max = -inf
                s -= new_max
                np.exp(s, out=s)
                run_sum = run_sum * shrink + s.sum(axis=2, keepdims=True)
                acc = acc * shrink + np.matmul(s, V[:, k0:k1])
                run_max = new_max
            H[:, q0:q1] = acc / run_sum

        H = H.transpose(1, 0, 2).reshape(T, d_model)
        return H @ np.asarray(W_O, dtype=np.float64) + np.asarray(b_O, dtype=np.float64)
