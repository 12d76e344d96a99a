# ACCEPTED: a Python loop over the pairs, each row summed with math.fsum over its kept tokens, and the
# softplus branch chosen by the sign of the margin so that exp never sees a large argument.
import math


def masked_sum(values, mask):
    return math.fsum(v for v, keep in zip(values, mask) if keep)


class Solution:
    def dpo_loss(self, policy_chosen_logps, policy_rejected_logps, reference_chosen_logps,
                 reference_rejected_logps, chosen_mask, rejected_mask, beta):
        total = 0.0
        rows = zip(policy_chosen_logps, policy_rejected_logps, reference_chosen_logps,
                   reference_rejected_logps, chosen_mask, rejected_mask)
        for pc, pr, rc, rr, cm, rm in rows:
            z = beta * ((masked_sum(pc, cm) - masked_sum(rc, cm)) - (masked_sum(pr, rm) - masked_sum(rr, rm)))
            total += math.log1p(math.exp(-z)) if z >= 0 else -z + math.log1p(math.exp(z))
        return total / len(chosen_mask)
