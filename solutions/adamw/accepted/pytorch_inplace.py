# ACCEPTED: torch.optim.AdamW's single-tensor loop: one vectorised step per gradient, in-place updates.
import numpy as np


class Solution:
    def adamw_steps(self, theta, grads, lr, beta1, beta2, eps, weight_decay):
        param = np.array(theta, dtype=np.float64)
        exp_avg = np.zeros_like(param)
        exp_avg_sq = np.zeros_like(param)
        for step, grad in enumerate(grads, start=1):
            grad = np.asarray(grad, dtype=np.float64)  # one step's gradient at a time
            param *= 1 - lr * weight_decay
            exp_avg += (grad - exp_avg) * (1 - beta1)  # torch's lerp_(grad, 1 - beta1)
            exp_avg_sq *= beta2
            exp_avg_sq += (1 - beta2) * grad * grad
            bias_correction1 = 1 - beta1**step
            bias_correction2 = 1 - beta2**step
            denom = np.sqrt(exp_avg_sq) / np.sqrt(bias_correction2) + eps
            param -= (lr / bias_correction1) * exp_avg / denom
        return param
