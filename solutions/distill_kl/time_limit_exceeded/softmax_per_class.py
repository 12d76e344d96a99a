# TIME LIMIT: each probability computed on its own, the row's normaliser summed again for every class: O(N C^2) work for O(N C).
import numpy as np


class Solution:
    def distill_kl(self, teacher_logits, student_logits, temperature):
        T = np.asarray(teacher_logits, dtype=np.float64) / temperature
        S = np.asarray(student_logits, dtype=np.float64) / temperature
        N, C = T.shape
        total = 0.0
        for i in range(N):
            for c in range(C):
                log_p = T[i, c] - T[i].max() - np.log(np.exp(T[i] - T[i].max()).sum())
                log_q = S[i, c] - S[i].max() - np.log(np.exp(S[i] - S[i].max()).sum())
                total += np.exp(log_p) * (log_p - log_q)
        return float(total / N * temperature**2)
