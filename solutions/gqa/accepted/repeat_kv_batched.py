# Accepted: K/V heads expanded to h_q heads with np.repeat, then one batched matmul over all heads.
import numpy as np


class Solution:
    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        arr = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        X = arr(X)
        T, d_model = X.shape
        d_k = d_model // h_q

        def by_head(M, n):
            # (T, n*d_k) -> (n, T, d_k): head j is the j-th block of d_k columns.
            return M.reshape(T, n, d_k).transpose(1, 0, 2)

        Q = by_head(X @ arr(W_Q) + arr(b_Q), h_q)
        K = by_head(X @ arr(W_K) + arr(b_K), h_k)
        V = by_head(X @ arr(W_V) + arr(b_V), h_k)
        # Repeating each K/V head group_size times puts K/V head i // group_size at position i.
        K = np.repeat(K, h_q // h_k, axis=0)
        V = np.repeat(V, h_q // h_k, axis=0)

        scores = np.matmul(Q, K.transpose(0, 2, 1))  # (h_q, T, T)
        scores *= 1.0 / np.sqrt(d_k)
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=-1, keepdims=True)
        heads = np.matmul(scores, V)  # (h_q, T, d_k)

        H = heads.transpose(1, 0, 2).reshape(T, d_model)
        return (H @ arr(W_O) + arr(b_O)).tolist()
