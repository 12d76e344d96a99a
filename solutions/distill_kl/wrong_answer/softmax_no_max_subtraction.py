# WRONG: the softmaxes without the row maximum subtracted: tempered logits beyond 709.78 overflow exp to inf, and inf / inf is nan.
import numpy as np


def log_softmax(Z):
    return Z - np.log(np.exp(Z).sum(axis=1, keepdims=True))


class Solution:
    def distill_kl(self, teacher_logits, student_logits, temperature):
        with np.errstate(over="ignore", invalid="ignore"):
            log_p = log_softmax(np.asarray(teacher_logits, dtype=np.float64) / temperature)
            log_q = log_softmax(np.asarray(student_logits, dtype=np.float64) / temperature)
            return float((np.exp(log_p) * (log_p - log_q)).sum() / log_p.shape[0] * temperature**2)
