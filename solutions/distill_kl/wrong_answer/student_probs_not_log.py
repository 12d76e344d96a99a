# WRONG: the student's probabilities passed where KLDivLoss wants log-probabilities (F.kl_div(F.softmax(s), p)), which computes sum p (log p - q): microsoft/ProDA issue #20, a confirmed bug there.
import numpy as np


def log_softmax(Z):
    shifted = Z - Z.max(axis=1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


class Solution:
    def distill_kl(self, teacher_logits, student_logits, temperature):
        T = np.asarray(teacher_logits, dtype=np.float64)
        S = np.asarray(student_logits, dtype=np.float64)
        log_p = log_softmax(T / temperature)
        q = np.exp(log_softmax(S / temperature))
        return float((np.exp(log_p) * (log_p - q)).sum() / T.shape[0] * temperature**2)
