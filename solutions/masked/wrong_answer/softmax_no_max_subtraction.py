# WRONG: the hidden keys rightly set to -inf, but the softmax takes exp of the raw scores without subtracting each row's maximum: scores of 1e9 and more overflow exp to inf and inf / inf is NaN.
# Public: Blocks' attention overflowed exp on large energies and spread NaN through translation models (mila-iqia/blocks PR #727).
import numpy as np


class Solution:
    def masked_attention(self, q, k, v, mask, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        q, k, v = f(q), f(k), f(v)
        B, T_q, d_model = q.shape
        d_k = d_model // num_heads

        def heads(x, W, b):  # (B, T, d_model) -> (B, num_heads, T, d_k)
            return (x @ f(W) + f(b)).reshape(B, x.shape[1], num_heads, d_k).transpose(0, 2, 1, 3)

        Q, K, V = heads(q, W_Q, b_Q), heads(k, W_K, b_K), heads(v, W_V, b_V)
        scores = Q @ K.transpose(0, 1, 3, 2) / np.sqrt(d_k)
        scores = np.where(np.asarray(mask)[:, None] != 0, -np.inf, scores)  # 1 hides a key
        weights = np.exp(scores)  # no maximum subtracted
        weights /= weights.sum(axis=-1, keepdims=True)
        H = (weights @ V).transpose(0, 2, 1, 3).reshape(B, T_q, d_model)
        return (H @ f(W_O) + f(b_O)).tolist()
