# Accepted: queries scaled by 1/sqrt(d_k) before the product (another rounding order), K/V heads broadcast over groups.
import numpy as np


class Solution:
    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        X = np.asarray(X, dtype=np.float64)
        T, d_model = X.shape
        d_k = d_model // h_q
        group = h_q // h_k
        Q = (X @ np.asarray(W_Q, float) + np.asarray(b_Q, float)) / np.sqrt(d_k)
        K = X @ np.asarray(W_K, float) + np.asarray(b_K, float)
        V = X @ np.asarray(W_V, float) + np.asarray(b_V, float)
        Qg = Q.reshape(T, h_k, group, d_k).transpose(1, 2, 0, 3)  # (h_k, group, T, d_k)
        Kh = K.reshape(T, h_k, 1, d_k).transpose(1, 2, 0, 3)      # (h_k, 1, T, d_k)
        Vh = V.reshape(T, h_k, 1, d_k).transpose(1, 2, 0, 3)
        S = Qg @ Kh.transpose(0, 1, 3, 2)
        P = np.exp(S - S.max(axis=-1, keepdims=True))
        H = (P @ Vh) / P.sum(axis=-1, keepdims=True)               # normalise after the product
        H = H.reshape(h_q, T, d_k).transpose(1, 0, 2).reshape(T, d_model)
        return H @ np.asarray(W_O, float) + np.asarray(b_O, float)
