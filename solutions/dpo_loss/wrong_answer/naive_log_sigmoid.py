# WRONG: -log(sigmoid(z)) computed as written, as tinker-cookbook's DPO loss had it before thinking-machines-lab/tinker-cookbook PR #188 (and DeepSpeedExamples' reward loss before deepspeedai/DeepSpeedExamples PR #501): exp(-z) overflows for z < -709.78, sigmoid is 0 and the loss inf.
import numpy as np


class Solution:
    def dpo_loss(self, policy_chosen_logps, policy_rejected_logps, reference_chosen_logps,
                 reference_rejected_logps, chosen_mask, rejected_mask, beta):
        cm = np.asarray(chosen_mask, dtype=np.float64)
        rm = np.asarray(rejected_mask, dtype=np.float64)
        pi_c = (np.asarray(policy_chosen_logps, dtype=np.float64) * cm).sum(axis=1)
        pi_r = (np.asarray(policy_rejected_logps, dtype=np.float64) * rm).sum(axis=1)
        ref_c = (np.asarray(reference_chosen_logps, dtype=np.float64) * cm).sum(axis=1)
        ref_r = (np.asarray(reference_rejected_logps, dtype=np.float64) * rm).sum(axis=1)
        z = beta * ((pi_c - ref_c) - (pi_r - ref_r))
        with np.errstate(over="ignore", divide="ignore"):
            losses = -np.log(1.0 / (1.0 + np.exp(-z)))
        return float(losses.mean())
