# WRONG: beta and 1 - beta swapped in the moving averages, the convention mix-up of ryankiros/skip-thoughts training/optim.py (issue #82).
import numpy as np


class Solution:
    def adamw_steps(self, theta, grads, lr, beta1, beta2, eps, weight_decay):
        theta = np.array(theta, dtype=np.float64)
        m = np.zeros_like(theta)
        v = np.zeros_like(theta)
        for t, g in enumerate(np.asarray(grads, dtype=np.float64), start=1):
            theta = theta - lr * weight_decay * theta
            m = (1 - beta1) * m + beta1 * g
            v = (1 - beta2) * v + beta2 * g * g
            m_hat = m / (1 - beta1**t)
            v_hat = v / (1 - beta2**t)
            theta = theta - lr * m_hat / (np.sqrt(v_hat) + eps)
        return theta
