# ACCEPTED: TRL's layout: chosen and rejected stacked into one (2B, T) batch per model, summed under the
# stacked mask, split back in halves; -logsigmoid(z) written as log1p(exp(-|z|)) + max(-z, 0).
import numpy as np


class Solution:
    def dpo_loss(self, policy_chosen_logps, policy_rejected_logps, reference_chosen_logps,
                 reference_rejected_logps, chosen_mask, rejected_mask, beta):
        B = len(chosen_mask)
        mask = np.asarray(chosen_mask + rejected_mask, dtype=bool)
        policy = np.asarray(policy_chosen_logps + policy_rejected_logps, dtype=np.float64)
        reference = np.asarray(reference_chosen_logps + reference_rejected_logps, dtype=np.float64)
        policy_logps = np.where(mask, policy, 0.0).sum(axis=1)
        reference_logps = np.where(mask, reference, 0.0).sum(axis=1)
        pi_logratios = policy_logps[:B] - policy_logps[B:]
        ref_logratios = reference_logps[:B] - reference_logps[B:]
        z = beta * (pi_logratios - ref_logratios)
        losses = np.log1p(np.exp(-np.abs(z))) + np.maximum(-z, 0.0)
        return float(losses.mean())
