# Accepted: grouped view, each K/V head serves its group's query heads stacked into one tall matrix; b_K dropped (it adds q . b_K to a whole score row, which softmax ignores).
import numpy as np


class Solution:
    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        X = np.asarray(X, dtype=np.float64)
        T, d_model = X.shape
        d_k = d_model // h_q
        group_size = h_q // h_k

        Q = X @ np.asarray(W_Q, dtype=np.float64) + np.asarray(b_Q, dtype=np.float64)
        K = X @ np.asarray(W_K, dtype=np.float64)  # no b_K: see the first line
        V = X @ np.asarray(W_V, dtype=np.float64) + np.asarray(b_V, dtype=np.float64)

        # Query heads g*group_size .. (g+1)*group_size-1 are consecutive, so after moving the
        # head axis first they stack, group by group, into (h_k, group_size*T, d_k).
        Qg = Q.reshape(T, h_q, d_k).transpose(1, 0, 2).reshape(h_k, group_size * T, d_k)
        Kt = K.reshape(T, h_k, d_k).transpose(1, 2, 0)  # (h_k, d_k, T)
        Vh = V.reshape(T, h_k, d_k).transpose(1, 0, 2)  # (h_k, T, d_k)

        logits = Qg @ Kt  # (h_k, group_size*T, T)
        logits /= np.sqrt(d_k)
        logits -= logits.max(axis=-1, keepdims=True)
        weights = np.exp(logits, out=logits)
        weights /= weights.sum(axis=-1, keepdims=True)

        heads = (weights @ Vh).reshape(h_q, T, d_k)
        H = heads.transpose(1, 0, 2).reshape(T, d_model)
        return H @ np.asarray(W_O, dtype=np.float64) + np.asarray(b_O, dtype=np.float64)
