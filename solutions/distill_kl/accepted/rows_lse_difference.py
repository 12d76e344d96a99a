# ACCEPTED: a loop over the rows with KL = (lse_s - lse_t) - sum_c p_c (s_c - t_c), the tempered logits' log-normalisers
# from np.logaddexp.reduce: no log-probability vector at all.
import numpy as np


class Solution:
    def distill_kl(self, teacher_logits, student_logits, temperature):
        total = 0.0
        for t_row, s_row in zip(teacher_logits, student_logits):
            t = np.asarray(t_row, dtype=np.float64) / temperature
            s = np.asarray(s_row, dtype=np.float64) / temperature
            lse_t = np.logaddexp.reduce(t)
            lse_s = np.logaddexp.reduce(s)
            p = np.exp(t - lse_t)
            total += (lse_s - lse_t) - float(p @ (s - t))
        return total / len(teacher_logits) * temperature * temperature
