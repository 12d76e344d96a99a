# WRONG: the step counter t starts at 0, so step 1 divides by 1 - beta ** 0 = 0 (fchollet's objection to keras-team/keras PR #10129).
import numpy as np


class Solution:
    def adamw_steps(self, theta, grads, lr, beta1, beta2, eps, weight_decay):
        theta = np.array(theta, dtype=np.float64)
        m = np.zeros_like(theta)
        v = np.zeros_like(theta)
        for t, g in enumerate(np.asarray(grads, dtype=np.float64), start=1):
            theta = theta - lr * weight_decay * theta
            m = beta1 * m + (1 - beta1) * g
            v = beta2 * v + (1 - beta2) * g * g
            m_hat = m / (1 - beta1 ** (t - 1))
            v_hat = v / (1 - beta2 ** (t - 1))
            theta = theta - lr * m_hat / (np.sqrt(v_hat) + eps)
        return theta
