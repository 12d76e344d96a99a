"""Reference solution for multi-head latent attention (DeepSeek-V2's attention, without norms).

Vectorised over heads with batched matmul. `dtype` is float64 for judging; the test generator
re-runs it in np.longdouble to reject ill-conditioned tests, and then np.exp, np.sin and np.cos
are the portable versions of testcases/oracle.py, so the frequencies are computed as
exp(-(2j / d_R) * ln 10000) rather than with a power, and ln 10000 is rounded to the working dtype
exactly (float() would stop at 53 bits).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

LN_10000 = Fraction("9.21034037197618273607196581873745683040440595451509190413331")  # ln(10000) = 4 ln(10)


def nearest(x: Fraction, dtype) -> np.floating:
    """The value of `dtype` nearest to the rational x > 0, from exact integer operations."""
    bits = np.finfo(dtype).nmant + 1
    shift = bits - (x.numerator.bit_length() - x.denominator.bit_length())
    if x * Fraction(2) ** shift >= 2**bits:
        shift -= 1
    mantissa = round(x * Fraction(2) ** shift)  # `bits` bits (or 2**bits): exact as two halves
    hi, lo = divmod(mantissa, 2**32)
    return np.ldexp(dtype(hi) * dtype(2**32) + dtype(lo), -shift)


class Solution:
    dtype = np.float64

    def multi_head_latent_attention(self, X, W_DKV, W_UK, W_UV, W_Q, W_QR, W_KR, num_heads, W_O):
        f = lambda a: np.asarray(a, dtype=self.dtype)  # noqa: E731
        X = f(X)
        T = X.shape[0]
        d_h = f(W_UK).shape[1] // num_heads
        d_R = f(W_KR).shape[1]

        def heads(M, width):  # (T, num_heads * width) -> (num_heads, T, width)
            return M.reshape(T, num_heads, width).transpose(1, 0, 2)

        c = X @ f(W_DKV)  # (T, d_c): the latent, cached per token with k_R
        K, V = heads(c @ f(W_UK), d_h), heads(c @ f(W_UV), d_h)
        Q = heads(X @ f(W_Q), d_h)

        # RoPE: pair (2j, 2j+1) at position t turned by t * 10000^(-2j/d_R).
        exponents = np.arange(0, d_R, 2, dtype=self.dtype) / self.dtype(d_R)
        inv_freq = np.exp(-exponents * nearest(LN_10000, self.dtype))
        angles = np.arange(T, dtype=self.dtype)[:, None] * inv_freq  # (T, d_R / 2)
        cos, sin = np.cos(angles), np.sin(angles)

        def rope(Z):  # (..., T, d_R)
            a, b = Z[..., 0::2], Z[..., 1::2]
            out = np.empty_like(Z)
            out[..., 0::2] = a * cos - b * sin
            out[..., 1::2] = a * sin + b * cos
            return out

        q_R = rope(heads(X @ f(W_QR), d_R))  # (num_heads, T, d_R)
        k_R = rope(X @ f(W_KR))  # (T, d_R), shared by every head

        # Batched matmul, not einsum: einsum does not call BLAS.
        scores = (Q @ K.transpose(0, 2, 1) + q_R @ k_R.T) / np.sqrt(self.dtype(d_h + d_R))
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        H = (weights @ V).transpose(1, 0, 2).reshape(T, num_heads * d_h)
        return (H @ f(W_O)).tolist()
