# RUN-TIME ERROR: divides the logits by the temperature as if they were arrays, but they arrive as Python lists (TypeError).
import numpy as np


class Solution:
    def distill_kl(self, teacher_logits, student_logits, temperature):
        T = teacher_logits / temperature
        S = student_logits / temperature
        log_p = T - np.logaddexp.reduce(T, axis=1, keepdims=True)
        log_q = S - np.logaddexp.reduce(S, axis=1, keepdims=True)
        return float((np.exp(log_p) * (log_p - log_q)).sum() / len(T) * temperature**2)
