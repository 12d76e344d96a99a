# TIME LIMIT: pure Python loops with math.exp and math.log over every logit, the row maximum recomputed for each class (O(N C^2)).
import math


class Solution:
    def weighted_cross_entropy(self, logits, targets, weight, ignore_index, label_smoothing):
        total, weight_sum = 0.0, 0.0
        for row, target in zip(logits, targets):
            if target == ignore_index:
                continue
            c = len(row)
            log_probs = [z - max(row) - math.log(sum(math.exp(v - max(row)) for v in row)) for z in row]
            total -= (1 - label_smoothing) * weight[target] * log_probs[target]
            total -= label_smoothing * sum(wc * lp for wc, lp in zip(weight, log_probs)) / c
            weight_sum += weight[target]
        return total / weight_sum if weight_sum else 0.0
