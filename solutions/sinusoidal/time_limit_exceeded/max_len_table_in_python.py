# TIME LIMIT: the whole max_len buffer, every position from 0 to the largest, filled by Python loops over positions and pairs (SamLynnEvans/Transformer's Embed.py), then indexed: O(max(positions) * d_model).
import math

import numpy as np


class Solution:
    def sinusoidal_encoding(self, positions, d_model, base):
        idx = np.asarray(positions, dtype=np.int64)
        max_len = int(idx.max()) + 1
        pe = np.zeros((max_len, d_model))
        for pos in range(max_len):
            for i in range(0, d_model, 2):
                angle = pos / base ** (i / d_model)
                pe[pos, i] = math.sin(angle)
                pe[pos, i + 1] = math.cos(angle)
        return pe[idx]
