# WRONG: the right causal mask (-inf above the diagonal), but the softmax takes exp of the raw scores without subtracting each row's maximum: scores of 1e9 and more overflow exp to inf and inf / inf is NaN.
# Public: PyTorch ExecuTorch's Vulkan SDPA shader computed exp(x) / sum(exp(x)) and gave NaN on Phi-4-mini (pytorch/executorch PR #18407).
import numpy as np


class Solution:
    def causal_self_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        X = f(X)
        T, d_model = X.shape
        d_k = d_model // num_heads

        def split(M):  # (T, d_model) -> (num_heads, T, d_k)
            return M.reshape(T, num_heads, d_k).transpose(1, 0, 2)

        Q, K, V = split(X @ f(W_Q) + f(b_Q)), split(X @ f(W_K) + f(b_K)), split(X @ f(W_V) + f(b_V))
        scores = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)
        visible = np.tril(np.ones((T, T), dtype=bool))  # u <= t
        scores = np.where(visible, scores, -np.inf)
        weights = np.exp(scores)  # no maximum subtracted
        weights /= weights.sum(axis=-1, keepdims=True)
        H = (weights @ V).transpose(1, 0, 2).reshape(T, d_model)
        return (H @ f(W_O) + f(b_O)).tolist()
