# WRONG: sines in the first half, cosines in the second (np.concatenate([sin, cos])), as tensor2tensor's get_timing_signal_1d, fairseq and AllenNLP do (allenai/allennlp#2993, tatp22/multidim-positional-encoding#20).
import numpy as np


class Solution:
    def sinusoidal_encoding(self, positions, d_model, base):
        p = np.asarray(positions, dtype=np.float64)
        omega = 1.0 / base ** (np.arange(0, d_model, 2, dtype=np.float64) / d_model)
        angles = p[..., None] * omega
        pe = np.empty(p.shape + (d_model,))
        pe[..., : d_model // 2] = np.sin(angles)
        pe[..., d_model // 2 :] = np.cos(angles)
        return pe
