# WRONG: each response's log-probability averaged over its tokens (a length-normalised sum), as jingyaogong/minimind's dpo_loss does (issue #451 shows its (probs * mask).sum(dim=1) / seq_lengths).
import numpy as np


class Solution:
    def dpo_loss(self, policy_chosen_logps, policy_rejected_logps, reference_chosen_logps,
                 reference_rejected_logps, chosen_mask, rejected_mask, beta):
        cm = np.asarray(chosen_mask, dtype=np.float64)
        rm = np.asarray(rejected_mask, dtype=np.float64)

        def mean_logps(logps, mask):
            return (np.asarray(logps, dtype=np.float64) * mask).sum(axis=1) / mask.sum(axis=1)

        chosen = mean_logps(policy_chosen_logps, cm) - mean_logps(reference_chosen_logps, cm)
        rejected = mean_logps(policy_rejected_logps, rm) - mean_logps(reference_rejected_logps, rm)
        z = beta * (chosen - rejected)
        return float(np.logaddexp(0.0, -z).mean())
