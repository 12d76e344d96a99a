# ACCEPTED: both tempered log-softmaxes with the row maximum subtracted, then sum p * (log p - log q) / N * tau^2.
import numpy as np


def log_softmax(Z):
    shifted = Z - Z.max(axis=1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


class Solution:
    def distill_kl(self, teacher_logits, student_logits, temperature):
        log_p = log_softmax(np.asarray(teacher_logits, dtype=np.float64) / temperature)
        log_q = log_softmax(np.asarray(student_logits, dtype=np.float64) / temperature)
        kl = (np.exp(log_p) * (log_p - log_q)).sum() / log_p.shape[0]
        return float(kl * temperature**2)
