# WRONG: the teacher's log-probabilities taken as log(softmax): a probability that underflowed to 0 gives log 0 = -inf and 0 * -inf = nan, where the term is 0 (the nan of a separate log and softmax in yzd-v/cls_KD issue #13).
import numpy as np


def log_softmax(Z):
    shifted = Z - Z.max(axis=1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


class Solution:
    def distill_kl(self, teacher_logits, student_logits, temperature):
        T = np.asarray(teacher_logits, dtype=np.float64)
        S = np.asarray(student_logits, dtype=np.float64)
        e = np.exp(T / temperature - (T / temperature).max(axis=1, keepdims=True))
        p = e / e.sum(axis=1, keepdims=True)
        log_q = log_softmax(S / temperature)
        with np.errstate(divide="ignore", invalid="ignore"):
            return float((p * (np.log(p) - log_q)).sum() / T.shape[0] * temperature**2)
