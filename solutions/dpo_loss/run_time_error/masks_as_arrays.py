# RUN-TIME ERROR: indexes the log-probabilities with the mask as if both were arrays, but they arrive as Python lists (TypeError).
import numpy as np


class Solution:
    def dpo_loss(self, policy_chosen_logps, policy_rejected_logps, reference_chosen_logps,
                 reference_rejected_logps, chosen_mask, rejected_mask, beta):
        chosen = [sum(row[m == 1]) for row, m in zip(policy_chosen_logps, chosen_mask)]
        rejected = [sum(row[m == 1]) for row, m in zip(policy_rejected_logps, rejected_mask)]
        ref_chosen = [sum(row[m == 1]) for row, m in zip(reference_chosen_logps, chosen_mask)]
        ref_rejected = [sum(row[m == 1]) for row, m in zip(reference_rejected_logps, rejected_mask)]
        z = beta * ((np.array(chosen) - ref_chosen) - (np.array(rejected) - ref_rejected))
        return float(np.logaddexp(0.0, -z).mean())
