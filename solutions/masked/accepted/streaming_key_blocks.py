# Accepted: online (streaming) softmax over blocks of keys with a running maximum, running sum and rescaled accumulator; a block whose keys are all hidden from a row leaves that row untouched.
import numpy as np

BLOCK = 48


class Solution:
    def masked_attention(self, q, k, v, mask, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        q, k, v = f(q), f(k), f(v)
        hidden = np.asarray(mask, dtype=bool)[:, None]  # (B, 1, T_q, T_k)
        B, T_q, d_model = q.shape
        T_k = k.shape[1]
        d_k = d_model // num_heads

        def heads(x, W, b):
            T = x.shape[1]
            M = x @ f(W) + f(b)
            return np.ascontiguousarray(M.reshape(B, T, num_heads, d_k).transpose(0, 2, 1, 3))

        Q, K, V = heads(q, W_Q, b_Q), heads(k, W_K, b_K), heads(v, W_V, b_V)
        inv_sqrt_dk = 1.0 / np.sqrt(d_k)

        run_max = np.full((B, num_heads, T_q, 1), -np.inf)
        run_sum = np.zeros((B, num_heads, T_q, 1))
        acc = np.zeros((B, num_heads, T_q, d_k))
        for k0 in range(0, T_k, BLOCK):
            s = np.matmul(Q, K[:, :, k0:k0 + BLOCK].transpose(0, 1, 3, 2))
            s *= inv_sqrt_dk
            s[np.broadcast_to(hidden[..., k0:k0 + BLOCK], s.shape)] = -np.inf
            new_max = np.maximum(run_max, s.max(axis=3, keepdims=True))
            # A row that has seen no visible key yet keeps the maximum -inf; shift it by 0 instead,
            # so that exp(-inf - -inf) never makes a NaN (its weights are all exp(-inf) = 0).
            shift = np.where(np.isneginf(new_max), 0.0, new_max)
            shrink = np.exp(run_max - shift)
            p = np.exp(s - shift)
            run_sum = run_sum * shrink + p.sum(axis=3, keepdims=True)
            acc = acc * shrink + np.matmul(p, V[:, :, k0:k0 + BLOCK])
            run_max = new_max

        H = (acc / run_sum).transpose(0, 2, 1, 3).reshape(B, T_q, d_model)
        return H @ f(W_O) + f(b_O)
