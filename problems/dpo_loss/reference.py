"""Reference solution for the DPO loss over a batch of preference pairs.

Each response's log-probability is the masked sum of its per-token log-probabilities, under the
policy and under the reference model; the pair's margin is z = beta * ((pi_c - ref_c) - (pi_r -
ref_r)) and its loss -log sigmoid(z) = softplus(-z), written max(-z, 0) + log(1 + exp(-|z|)) so
that a margin of -1e4 gives 1e4 instead of log(0). `dtype` is float64 for judging; in
np.longdouble the test generator's np.exp and np.log are the portable ones (testcases/oracle.py).
"""

from __future__ import annotations

import numpy as np


class Solution:
    dtype = np.float64

    def dpo_loss(self, policy_chosen_logps, policy_rejected_logps, reference_chosen_logps,
                 reference_rejected_logps, chosen_mask, rejected_mask, beta):
        chosen = np.asarray(chosen_mask, dtype=self.dtype)
        rejected = np.asarray(rejected_mask, dtype=self.dtype)

        def total(logps, mask):
            return (np.asarray(logps, dtype=self.dtype) * mask).sum(axis=1)

        chosen_ratio = total(policy_chosen_logps, chosen) - total(reference_chosen_logps, chosen)
        rejected_ratio = total(policy_rejected_logps, rejected) - total(reference_rejected_logps, rejected)
        z = np.asarray(beta, dtype=self.dtype) * (chosen_ratio - rejected_ratio)
        losses = np.maximum(-z, 0) + np.log(1 + np.exp(-np.abs(z)))
        return losses.sum() / self.dtype(len(losses))
