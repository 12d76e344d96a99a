# ACCEPTED: every step at once: the moments as lower-triangular weight matrices times the stacked gradients.
import numpy as np


class Solution:
    def adamw_steps(self, theta, grads, lr, beta1, beta2, eps, weight_decay):
        theta = np.asarray(theta, dtype=np.float64)
        G = np.asarray(grads, dtype=np.float64)
        S = G.shape[0]
        flat = G.reshape(S, -1)
        t = np.arange(1, S + 1, dtype=np.float64)
        lag = np.subtract.outer(t, t)  # t - k for step t and gradient k
        past = lag >= 0
        # m_t = sum_k (1 - beta1) beta1^(t-k) g_k; a zero beta1 keeps only k = t (0^0 = 1)
        W1 = np.where(past, (1 - beta1) * np.power(beta1, np.where(past, lag, 0)), 0.0)
        W2 = np.where(past, (1 - beta2) * np.power(beta2, np.where(past, lag, 0)), 0.0)
        m_hat = (W1 @ flat) / (1 - beta1**t)[:, None]
        v_hat = (W2 @ (flat * flat)) / (1 - beta2**t)[:, None]
        updates = m_hat / (np.sqrt(v_hat) + eps)  # row t - 1 is step t's Adam direction
        # theta_S = keep^S theta_0 - lr sum_t keep^(S-t) u_t with keep = 1 - lr * weight_decay
        keep = 1 - lr * weight_decay
        carried = np.power(keep, S - t)
        result = keep**S * theta.reshape(-1) - lr * (carried @ updates)
        return result.reshape(theta.shape)
