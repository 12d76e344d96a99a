# Accepted: numpy loop over batch items and heads, each head on its own block of d_k columns; hidden scores set to -inf before the softmax.
import numpy as np


class Solution:
    def masked_attention(self, q, k, v, mask, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        q, k, v = f(q), f(k), f(v)
        hidden = np.asarray(mask) == 1
        B, T_q, d_model = q.shape
        d_k = d_model // num_heads
        inv_sqrt_dk = 1.0 / np.sqrt(d_k)

        out = np.empty((B, T_q, d_model))
        for b in range(B):
            Q = q[b] @ f(W_Q) + f(b_Q)  # (T_q, d_model)
            K = k[b] @ f(W_K) + f(b_K)  # (T_k, d_model)
            V = v[b] @ f(W_V) + f(b_V)
            H = np.empty((T_q, d_model))
            for h in range(num_heads):
                cols = slice(h * d_k, (h + 1) * d_k)
                s = (Q[:, cols] @ K[:, cols].T) * inv_sqrt_dk  # (T_q, T_k)
                s[hidden[b]] = -np.inf
                s -= s.max(axis=1, keepdims=True)
                np.exp(s, out=s)
                s /= s.sum(axis=1, keepdims=True)
                H[:, cols] = s @ V[:, cols]
            out[b] = H @ f(W_O) + f(b_O)
        return out
