# WRONG: the rejected log-probabilities summed under the chosen mask, the copy-paste slip FunAudioLLM/CosyVoice's DPO loss had (QwenAudio/CosyVoice issue #1449).
import numpy as np


class Solution:
    def dpo_loss(self, policy_chosen_logps, policy_rejected_logps, reference_chosen_logps,
                 reference_rejected_logps, chosen_mask, rejected_mask, beta):
        cm = np.asarray(chosen_mask, dtype=np.float64)
        pi_c = (np.asarray(policy_chosen_logps, dtype=np.float64) * cm).sum(axis=1)
        pi_r = (np.asarray(policy_rejected_logps, dtype=np.float64) * cm).sum(axis=1)
        ref_c = (np.asarray(reference_chosen_logps, dtype=np.float64) * cm).sum(axis=1)
        ref_r = (np.asarray(reference_rejected_logps, dtype=np.float64) * cm).sum(axis=1)
        z = beta * ((pi_c - ref_c) - (pi_r - ref_r))
        return float(np.logaddexp(0.0, -z).mean())
