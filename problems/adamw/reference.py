"""Reference solution for S steps of AdamW, as torch.optim.AdamW computes them.

Per step t = 1..S: decay theta by lr * weight_decay (on the parameters before the step), update the
two moments, correct their bias with beta ** t, and step by lr * m_hat / (sqrt(v_hat) + eps). The
powers beta ** t are running products, so only * / sqrt are needed; `dtype` is float64 for judging
and np.longdouble when the test generator computes the stored answers.
"""

from __future__ import annotations

import numpy as np


class Solution:
    dtype = np.float64

    def adamw_steps(self, theta, grads, lr, beta1, beta2, eps, weight_decay):
        theta = np.array(theta, dtype=self.dtype)
        G = np.asarray(grads, dtype=self.dtype)
        lr, beta1, beta2, eps, wd = (self.dtype(x) for x in (lr, beta1, beta2, eps, weight_decay))
        m = np.zeros_like(theta)
        v = np.zeros_like(theta)
        power1 = power2 = self.dtype(1)
        for g in G:
            power1, power2 = power1 * beta1, power2 * beta2  # beta ** t for this step t
            theta = theta - lr * wd * theta
            m = beta1 * m + (1 - beta1) * g
            v = beta2 * v + (1 - beta2) * g * g
            m_hat = m / (1 - power1)
            v_hat = v / (1 - power2)
            theta = theta - lr * m_hat / (np.sqrt(v_hat) + eps)
        return theta
