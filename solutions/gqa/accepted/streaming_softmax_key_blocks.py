# Accepted: online (streaming) softmax over blocks of keys, all query heads at once, K/V head per query head via an index array i // group_size.
import numpy as np

BLOCK = 128


class Solution:
    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        X = np.asarray(X, dtype=np.float64)
        T, d_model = X.shape
        d_k = d_model // h_q
        kv_of = np.arange(h_q) // (h_q // h_k)  # K/V head read by each query head
        inv_sqrt_dk = 1.0 / np.sqrt(d_k)

        Q = (X @ np.asarray(W_Q, dtype=np.float64) + np.asarray(b_Q, dtype=np.float64)).reshape(T, h_q, d_k)
        K = (X @ np.asarray(W_K, dtype=np.float64) + np.asarray(b_K, dtype=np.float64)).reshape(T, h_k, d_k)
        V = (X @ np.asarray(W_V, dtype=np.float64) + np.asarray(b_V, dtype=np.float64)).reshape(T, h_k, d_k)
        Q = Q.transpose(1, 0, 2)  # (h_q, T, d_k)
        K = K.transpose(1, 0, 2)[kv_of]  # (h_q, T, d_k)
        V = V.transpose(1, 0, 2)[kv_of]

        # Running row maximum m, running sum of exp(s - m) l, and running numerator acc.
        m = np.full((h_q, T, 1), -np.inf)
        l = np.zeros((h_q, T, 1))
        acc = np.zeros((h_q, T, d_k))
        for start in range(0, T, BLOCK):
            # Scaling after the product keeps equal integer scores exactly equal.
            s = (Q @ K[:, start:start + BLOCK].transpose(0, 2, 1)) * inv_sqrt_dk  # (h_q, T, block)
            m_new = np.maximum(m, s.max(axis=-1, keepdims=True))
            rescale = np.exp(m - m_new)  # exp(-inf) = 0 on the first block
            s -= m_new
            p = np.exp(s, out=s)
            l *= rescale
            l += p.sum(axis=-1, keepdims=True)
            acc *= rescale
            acc += p @ V[:, start:start + BLOCK]
            m = m_new

        H = (acc / l).transpose(1, 0, 2).reshape(T, d_model)
        return (H @ np.asarray(W_O, dtype=np.float64) + np.asarray(b_O, dtype=np.float64)).tolist()
