# TIME LIMIT: rebuilds m_t and v_t at every step from the closed form sum_k (1 - beta) beta^(t-k) g_k over the whole history (O(S^2) array operations).
import numpy as np


class Solution:
    def adamw_steps(self, theta, grads, lr, beta1, beta2, eps, weight_decay):
        theta = np.asarray(theta, dtype=np.float64)
        G = np.asarray(grads, dtype=np.float64)
        for t in range(1, len(G) + 1):
            m = np.zeros_like(theta)
            v = np.zeros_like(theta)
            for k in range(1, t + 1):
                m += (1 - beta1) * beta1 ** (t - k) * G[k - 1]
                v += (1 - beta2) * beta2 ** (t - k) * G[k - 1] ** 2
            m_hat = m / (1 - beta1**t)
            v_hat = v / (1 - beta2**t)
            theta = theta - lr * weight_decay * theta - lr * m_hat / (np.sqrt(v_hat) + eps)
        return theta
