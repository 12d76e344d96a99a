# WRONG: a right preallocated KV cache, but the softmax over the cached positions takes exp of the raw scores without subtracting their maximum: scores of 1e9 and more overflow exp to inf and inf / inf is NaN.
# Public: PyTorch ExecuTorch's Vulkan SDPA shader, used to decode Llama and Phi, computed exp(x) / sum(exp(x)) and gave NaN (pytorch/executorch PR #18407).
import numpy as np


class Solution:
    def __init__(self, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        self.W_Q, self.b_Q, self.W_K, self.b_K = f(W_Q), f(b_Q), f(W_K), f(b_K)
        self.W_V, self.b_V, self.W_O, self.b_O = f(W_V), f(b_V), f(W_O), f(b_O)
        self.h_q, self.h_k = h_q, h_k
        self.d_k = len(W_Q) // h_q
        self.K = np.empty((h_k, 64, self.d_k))  # K[j, u]: key head j at position u; doubled when full
        self.V = np.empty((h_k, 64, self.d_k))
        self.t = 0

    def step(self, x):
        x = np.asarray(x, dtype=np.float64)
        h_q, h_k, d_k, t = self.h_q, self.h_k, self.d_k, self.t
        if t == self.K.shape[1]:
            self.K = np.concatenate([self.K, np.empty_like(self.K)], axis=1)
            self.V = np.concatenate([self.V, np.empty_like(self.V)], axis=1)
        self.K[:, t] = (x @ self.W_K + self.b_K).reshape(h_k, d_k)
        self.V[:, t] = (x @ self.W_V + self.b_V).reshape(h_k, d_k)
        self.t = t = t + 1
        q = (x @ self.W_Q + self.b_Q).reshape(h_k, h_q // h_k, d_k)  # query head i is [i // group, i % group]
        scores = q @ self.K[:, :t].transpose(0, 2, 1) / np.sqrt(d_k)  # (h_k, group, t)
        weights = np.exp(scores)  # no maximum subtracted
        weights /= weights.sum(axis=-1, keepdims=True)
        heads = (weights @ self.V[:, :t]).reshape(h_q * d_k)
        return heads @ self.W_O + self.b_O
