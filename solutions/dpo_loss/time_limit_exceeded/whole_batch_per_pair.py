# TIME LIMIT: the whole batch converted and summed again inside the loop over the pairs, to read one row of
# the result: O(B^2 T) work where O(B T) is asked (np.asarray of every list once per pair).
import numpy as np


class Solution:
    def dpo_loss(self, policy_chosen_logps, policy_rejected_logps, reference_chosen_logps,
                 reference_rejected_logps, chosen_mask, rejected_mask, beta):
        def sequence_logps(logps, mask):
            return (np.asarray(logps, dtype=np.float64) * np.asarray(mask, dtype=np.float64)).sum(axis=1)

        total = 0.0
        for i in range(len(chosen_mask)):
            chosen = sequence_logps(policy_chosen_logps, chosen_mask)[i] - sequence_logps(reference_chosen_logps, chosen_mask)[i]
            rejected = sequence_logps(policy_rejected_logps, rejected_mask)[i] - sequence_logps(reference_rejected_logps, rejected_mask)[i]
            total += float(np.logaddexp(0.0, -beta * (chosen - rejected)))
        return total / len(chosen_mask)
