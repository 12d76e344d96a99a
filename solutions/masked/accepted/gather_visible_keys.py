# Accepted: for each query row, the visible keys are gathered with np.flatnonzero and the softmax runs over them alone (all heads at once); hidden keys never enter the computation.
import numpy as np


class Solution:
    def masked_attention(self, q, k, v, mask, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        q, k, v = f(q), f(k), f(v)
        mask = np.asarray(mask)
        B, T_q, d_model = q.shape
        T_k = k.shape[1]
        d_k = d_model // num_heads

        Q = (q @ f(W_Q) + f(b_Q)).reshape(B, T_q, num_heads, d_k) / np.sqrt(d_k)
        K = (k @ f(W_K) + f(b_K)).reshape(B, T_k, num_heads, d_k)
        V = (v @ f(W_V) + f(b_V)).reshape(B, T_k, num_heads, d_k)

        H = np.empty((B, T_q, num_heads, d_k))
        for b in range(B):
            Kb = K[b].transpose(1, 2, 0)  # (num_heads, d_k, T_k)
            Vb = V[b].transpose(1, 0, 2)  # (num_heads, T_k, d_k)
            for t in range(T_q):
                seen = np.flatnonzero(mask[b, t] == 0)  # the keys query t may use
                s = np.matmul(Q[b, t][:, None, :], Kb[:, :, seen])[:, 0]  # (num_heads, visible)
                w = np.exp(s - s.max(axis=1, keepdims=True))
                w /= w.sum(axis=1, keepdims=True)
                H[b, t] = np.matmul(w[:, None, :], Vb[:, seen])[:, 0]
        return H.reshape(B, T_q, d_model) @ f(W_O) + f(b_O)
