# WRONG: KLDivLoss's reduction='mean': the pointwise terms averaged over all N * C elements instead of summed over classes and divided by N (yuanli2333/Teacher-free-Knowledge-Distillation issue #41, haitongli/knowledge-distillation-pytorch issue #48).
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
        return float((np.exp(log_p) * (log_p - log_q)).mean() * temperature**2)
