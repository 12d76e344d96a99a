# WRONG: the KL direction swapped: KL(student || teacher) = sum q (log q - log p), the reverse KL that paiml/aprender's kd_loss computed until its PR #2153.
import numpy as np


def log_softmax(Z):
    shifted = Z - Z.max(axis=1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


class Solution:
    def distill_kl(self, teacher_logits, student_logits, temperature):
        T = np.asarray(teacher_logits, dtype=np.float64)
        S = np.asarray(student_logits, dtype=np.float64)
        log_p = log_softmax(T / temperature)
        log_q = log_softmax(S / temperature)
        return float((np.exp(log_q) * (log_q - log_p)).sum() / T.shape[0] * temperature**2)
