# WRONG: the tau^2 factor missing: the KL of the softened distributions alone, whose gradients shrink as 1 / tau^2 (IntelLabs/distiller issue #122, confirmed a bug there).
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
        return float((np.exp(log_p) * (log_p - log_q)).sum() / T.shape[0])
