# ACCEPTED: PyTorch's F.kl_div(log_q, p, reduction="batchmean") spelt out: xlogy(p, p) - p * log_q with
# xlogy(0, 0) = 0, the teacher's probabilities from a stable softmax, the student's from a log-softmax.
import numpy as np


class Solution:
    def distill_kl(self, teacher_logits, student_logits, temperature):
        T = np.asarray(teacher_logits, dtype=np.float64) / temperature
        S = np.asarray(student_logits, dtype=np.float64) / temperature
        e = np.exp(T - T.max(axis=1, keepdims=True))
        p = e / e.sum(axis=1, keepdims=True)
        S = S - S.max(axis=1, keepdims=True)
        log_q = S - np.log(np.exp(S).sum(axis=1, keepdims=True))
        positive = p > 0
        xlogy = np.where(positive, p * np.log(np.where(positive, p, 1.0)), 0.0)
        pointwise = xlogy - p * log_q
        return float(pointwise.sum() / T.shape[0] * temperature * temperature)
