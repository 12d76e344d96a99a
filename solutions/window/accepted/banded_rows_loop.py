# Accepted: loop over query rows, all heads at once; row t takes the softmax over its band of keys K[max(0, t - window + 1) : t + 1] only, so no mask is built at all.
import numpy as np


class Solution:
    def sliding_window_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, window, W_O, b_O):
        X = np.asarray(X, dtype=np.float64)
        T, d_model = X.shape
        d_k = d_model // num_heads

        def heads(W, b):  # (num_heads, T, d_k), contiguous so that band slices are cheap
            M = X @ np.asarray(W, dtype=np.float64) + np.asarray(b, dtype=np.float64)
            return np.ascontiguousarray(M.reshape(T, num_heads, d_k).transpose(1, 0, 2))

        Q, K, V = heads(W_Q, b_Q), heads(W_K, b_K), heads(W_V, b_V)
        Q /= np.sqrt(d_k)

        H = np.empty((T, num_heads, d_k))
        for t in range(T):
            lo = max(0, t - window + 1)
            s = np.matmul(K[:, lo:t + 1], Q[:, t, :, None])[:, :, 0]  # (num_heads, keys in the band)
            s -= s.max(axis=1, keepdims=True)
            w = np.exp(s)
            w /= w.sum(axis=1, keepdims=True)
            H[t] = np.matmul(w[:, None, :], V[:, lo:t + 1])[:, 0, :]

        return H.reshape(T, d_model) @ np.asarray(W_O, dtype=np.float64) + np.asarray(b_O, dtype=np.float64)
