# ACCEPTED: the four masked row sums at once, then the stable softplus(-z) through np.logaddexp(0, -z).
import numpy as np


class Solution:
    def dpo_loss(self, policy_chosen_logps, policy_rejected_logps, reference_chosen_logps,
                 reference_rejected_logps, chosen_mask, rejected_mask, beta):
        cm = np.asarray(chosen_mask, dtype=np.float64)
        rm = np.asarray(rejected_mask, dtype=np.float64)
        chosen = ((np.asarray(policy_chosen_logps, dtype=np.float64)
                   - np.asarray(reference_chosen_logps, dtype=np.float64)) * cm).sum(axis=1)
        rejected = ((np.asarray(policy_rejected_logps, dtype=np.float64)
                     - np.asarray(reference_rejected_logps, dtype=np.float64)) * rm).sum(axis=1)
        z = beta * (chosen - rejected)
        return float(np.logaddexp(0.0, -z).mean())
