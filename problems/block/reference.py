"""Reference solution for a pre-norm LLaMA decoder block.

RMSNorm, causal grouped-query attention with rotate-half RoPE (batched over heads, keys and values
repeated per group), a residual, RMSNorm, SwiGLU and a second residual. `dtype` is float64 for
judging; the test generator re-runs it in np.longdouble, where np.exp, np.sin and np.cos are the
portable versions of testcases/oracle.py: the rotary frequencies are exp(-(2i / d_head) ln 10000)
with ln 10000 rounded to the working dtype exactly, as in problems/mla/reference.py.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

EPS = Fraction(1, 10**5)  # RMSNorm's eps, 1e-5 (LLaMA's norm_eps)
LN_10000 = Fraction("9.21034037197618273607196581873745683040440595451509190413331")  # ln(10000)


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

    def llama_decoder_block(self, X, g_attn, W_Q, W_K, W_V, W_O, num_heads, num_kv_heads, g_ffn, W1, W2, W3):
        f = lambda a: np.asarray(a, dtype=self.dtype)  # noqa: E731
        X = f(X)
        T, d_model = X.shape
        d_head = d_model // num_heads
        eps = nearest(EPS, self.dtype)

        def rms_norm(Z, g):
            return Z / np.sqrt((Z * Z).mean(axis=1, keepdims=True) + eps) * f(g)

        def heads(M, count):  # (T, count * d_head) -> (count, T, d_head)
            return M.reshape(T, count, d_head).transpose(1, 0, 2)

        # RoPE, rotate-half: component i pairs with i + d_head/2, turned by t * 10000^(-2i/d_head).
        half = d_head // 2
        inv_freq = np.exp(-(np.arange(half, dtype=self.dtype) * 2 / self.dtype(d_head)) * nearest(LN_10000, self.dtype))
        angles = np.arange(T, dtype=self.dtype)[:, None] * inv_freq  # (T, half)
        cos, sin = np.cos(angles), np.sin(angles)

        def rope(Z):  # (count, T, d_head)
            a, b = Z[..., :half], Z[..., half:]
            return np.concatenate([a * cos - b * sin, b * cos + a * sin], axis=-1)

        A = rms_norm(X, g_attn)
        Q = rope(heads(A @ f(W_Q), num_heads))
        group = num_heads // num_kv_heads  # query head i reads key/value head i // group
        K = np.repeat(rope(heads(A @ f(W_K), num_kv_heads)), group, axis=0)
        V = np.repeat(heads(A @ f(W_V), num_kv_heads), group, axis=0)
        scores = Q @ K.transpose(0, 2, 1) / np.sqrt(self.dtype(d_head))
        scores[:, np.triu(np.ones((T, T), dtype=bool), k=1)] = -np.inf
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        H = X + (weights @ V).transpose(1, 0, 2).reshape(T, d_model) @ f(W_O)

        B = rms_norm(H, g_ffn)
        G = B @ f(W1)
        with np.errstate(over="ignore"):  # exp(-g) = inf for g < -709.78 in float64: silu is -0.0
            silu = G / (1 + np.exp(-G))
        return (H + (silu * (B @ f(W3))) @ f(W2)).tolist()
