# Accepted: the absorbed form used at inference: W_UK folded into the queries (scores against the latent c, K never formed) and W_UV folded into W_O (values never formed).
import numpy as np


class Solution:
    def multi_head_latent_attention(self, X, W_DKV, W_UK, W_UV, W_Q, W_QR, W_KR, num_heads, W_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        X, W_UK, W_UV, W_Q, W_O = f(X), f(W_UK), f(W_UV), f(W_Q), f(W_O)
        T, d_model = X.shape
        d_c = W_UK.shape[0]
        d_h = W_UK.shape[1] // num_heads
        d_R = f(W_KR).shape[1]

        # Per head: W_Q_i W_UK_i^T (d_model x d_c) and W_UV_i W_O_i (d_c x d_model).
        W_Qh = W_Q.reshape(d_model, num_heads, d_h).transpose(1, 0, 2)  # (heads, d_model, d_h)
        W_UKh = W_UK.reshape(d_c, num_heads, d_h).transpose(1, 0, 2)  # (heads, d_c, d_h)
        W_UVh = W_UV.reshape(d_c, num_heads, d_h).transpose(1, 0, 2)
        W_Oh = W_O.reshape(num_heads, d_h, d_model)
        W_QK = np.matmul(W_Qh, W_UKh.transpose(0, 2, 1))  # (heads, d_model, d_c)
        W_VO = np.matmul(W_UVh, W_Oh)  # (heads, d_c, d_model)

        c = X @ f(W_DKV)  # (T, d_c): with k_R, all a decoder caches per token
        q_lat = np.matmul(X, W_QK)  # (heads, T, d_c)

        inv_freq = np.exp(-np.log(10000.0) * np.arange(0, d_R, 2) / d_R)
        angle = np.arange(T)[:, None] * inv_freq
        cos, sin = np.cos(angle), np.sin(angle)

        def rope(Z):
            a, b = Z[..., 0::2], Z[..., 1::2]
            return np.stack([a * cos - b * sin, a * sin + b * cos], axis=-1).reshape(Z.shape)

        q_R = rope((X @ f(W_QR)).reshape(T, num_heads, d_R).transpose(1, 0, 2))
        k_R = rope(X @ f(W_KR))

        S = (np.matmul(q_lat, c.T) + np.matmul(q_R, k_R.T)) / np.sqrt(d_h + d_R)
        S -= S.max(axis=-1, keepdims=True)
        P = np.exp(S)
        P /= P.sum(axis=-1, keepdims=True)
        context = np.matmul(P, c)  # (heads, T, d_c): attention over the latent itself
        return np.matmul(context, W_VO).sum(axis=0)
