# Accepted: keys and values padded with min(window, T) - 1 rows in front and cut into one band per position with np.lib.stride_tricks.sliding_window_view (no T x T scores); padded slots get -inf. Query rows go in blocks, so a band's copy stays small.
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

BLOCK_ELEMENTS = 1 << 21  # keys x heads x d_k materialised per block of rows: 16 MiB


class Solution:
    def sliding_window_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, window, W_O, b_O):
        X = np.asarray(X, dtype=np.float64)
        T, d_model = X.shape
        d_k = d_model // num_heads
        w = min(window, T)  # a window past T sees nothing more

        def heads(W, b):  # (T, num_heads, d_k)
            M = X @ np.asarray(W, dtype=np.float64) + np.asarray(b, dtype=np.float64)
            return M.reshape(T, num_heads, d_k)

        Q, K, V = heads(W_Q, b_Q) / np.sqrt(d_k), heads(W_K, b_K), heads(W_V, b_V)
        pad = np.zeros((w - 1, num_heads, d_k))
        # band[t, :, :, j] is key t - w + 1 + j (a padded slot when that is negative): (T, num_heads, d_k, w)
        K_bands = sliding_window_view(np.concatenate([pad, K]), w, axis=0)
        V_bands = sliding_window_view(np.concatenate([pad, V]), w, axis=0)
        padded = (np.arange(T)[:, None] - w + 1 + np.arange(w)[None, :]) < 0  # (T, w)

        H = np.empty((T, num_heads, d_k))
        rows = max(1, BLOCK_ELEMENTS // (w * d_model))
        for t0 in range(0, T, rows):
            t1 = min(T, t0 + rows)
            s = np.einsum("thd,thdj->thj", Q[t0:t1], K_bands[t0:t1])  # (rows, num_heads, w)
            s[np.broadcast_to(padded[t0:t1, None, :], s.shape)] = -np.inf
            s -= s.max(axis=2, keepdims=True)  # slot w - 1 is position t itself: always real
            p = np.exp(s)
            p /= p.sum(axis=2, keepdims=True)
            H[t0:t1] = np.einsum("thj,thdj->thd", p, V_bands[t0:t1])

        return H.reshape(T, d_model) @ np.asarray(W_O, dtype=np.float64) + np.asarray(b_O, dtype=np.float64)
