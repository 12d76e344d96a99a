# ACCEPTED: Optax's composition: scale_by_adam, then add_decayed_weights, then scale by -lr.
import numpy as np


def scale_by_adam(beta1, beta2, eps):
    """Turn each gradient into m_hat / (sqrt(v_hat) + eps), keeping the moments in a closure."""
    state = {"m": 0.0, "v": 0.0, "t": 0}

    def update(grad):
        state["t"] += 1
        state["m"] = beta1 * state["m"] + (1 - beta1) * grad
        state["v"] = beta2 * state["v"] + (1 - beta2) * np.square(grad)
        m_hat = state["m"] / (1 - beta1 ** state["t"])
        v_hat = state["v"] / (1 - beta2 ** state["t"])
        return m_hat / (np.sqrt(v_hat) + eps)

    return update


class Solution:
    def adamw_steps(self, theta, grads, lr, beta1, beta2, eps, weight_decay):
        params = np.asarray(theta, dtype=np.float64)
        adam = scale_by_adam(beta1, beta2, eps)
        for grad in grads:
            direction = adam(np.asarray(grad, dtype=np.float64)) + weight_decay * params  # add_decayed_weights on the old params
            params = params + (-lr) * direction
        return params
