# RUN-TIME ERROR: reads grads.shape as if grads were an array, but it arrives as nested Python lists (AttributeError).
import numpy as np


class Solution:
    def adamw_steps(self, theta, grads, lr, beta1, beta2, eps, weight_decay):
        theta = np.asarray(theta, dtype=np.float64)
        m = np.zeros_like(theta)
        v = np.zeros_like(theta)
        for t in range(1, grads.shape[0] + 1):
            g = np.asarray(grads[t - 1], dtype=np.float64)
            theta = theta * (1 - lr * weight_decay)
            m = beta1 * m + (1 - beta1) * g
            v = beta2 * v + (1 - beta2) * g * g
            theta = theta - lr * (m / (1 - beta1**t)) / (np.sqrt(v / (1 - beta2**t)) + eps)
        return theta
