"""The portable long double sin and cos of testcases/oracle.py: accurate, and used by the reference.

Stored expected outputs are the reference run in np.longdouble; sin and cos there must not be the
C library's sinl and cosl, whose last bits differ between CPUs. The replacements are checked
against an independent evaluation in Python's decimal module at 90 digits (pi by Machin's formula,
the reduction and the Taylor series all in decimal), so neither side borrows from the other.
"""

from __future__ import annotations

from decimal import Decimal, localcontext
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest

from problems import ProblemError
from testcases import oracle
from testcases.oracle import portable_cos, portable_exp, portable_sin

ULPS = 2  # the most a portable result may be off, in long double ulps of the true value
DIGITS = 90


def _arctan_inverse(n: int) -> Decimal:
    """arctan(1 / n) by its series, in the current decimal context."""
    x = Decimal(1) / n
    total, power, k = x, x, 1
    tiny = Decimal(10) ** -(DIGITS + 5)
    while abs(power) > tiny:
        power = -power / (n * n)
        k += 2
        total += power / k
    return total


def _exact_sin_cos(x: np.longdouble) -> tuple[Decimal, Decimal]:
    """sin x and cos x to about 80 digits, from the exact value of the long double x."""
    with localcontext() as ctx:
        ctx.prec = DIGITS
        pi = 16 * _arctan_inverse(5) - 4 * _arctan_inverse(239)
        exact = _fraction(x)
        value = Decimal(exact.numerator) / Decimal(exact.denominator)
        k = (value / (pi / 2)).to_integral_value()
        r = value - k * (pi / 2)
        sin, cos, term, n = Decimal(0), Decimal(0), Decimal(1), 0
        tiny = Decimal(10) ** -(DIGITS + 5)
        while n < 4 or abs(term) > tiny:  # term = r^n / n!
            if n % 2:
                sin += term if n % 4 == 1 else -term
            else:
                cos += term if n % 4 == 0 else -term
            n += 1
            term = term * r / n
        quadrant = int(k) % 4
        return [(sin, cos), (cos, -sin), (-sin, -cos), (-cos, sin)][quadrant]


def _fraction(value: np.longdouble) -> Fraction:
    mantissa, exponent = np.frexp(np.longdouble(value))
    return Fraction(int(np.ldexp(mantissa, 64))) * Fraction(2) ** (int(exponent) - 64)


def _ulps(got: np.longdouble, exact: Decimal) -> float:
    """|got - exact| in units of the long double ulp at exact."""
    got_fraction = _fraction(got)
    with localcontext() as ctx:
        ctx.prec = DIGITS
        error = abs(Decimal(got_fraction.numerator) / Decimal(got_fraction.denominator) - exact)
        size = abs(exact)
    exponent = int(np.frexp(float(size))[1]) if size else -16381  # size = m * 2**exponent, m in [1/2, 1)
    ulp = Decimal(2) ** (exponent - 64)
    return float(error / ulp)


def _angles() -> np.ndarray:
    """Angles over a wide range: random ones of every size up to 2**16, those RoPE meets, and
    long doubles next to multiples of pi/2 up to 65535 pi/2 (where the reduction cancels most)."""
    rng = np.random.default_rng(2024)
    wide = rng.uniform(-1, 1, 60) * np.exp2(rng.uniform(-30, 16, 60))
    rope = np.arange(512)[::37, None] * 10000.0 ** (-np.arange(0, 32, 2)[::5] / 32)
    pi = Fraction(_exact_pi_string())
    near = []
    for k in (1, 2, 3, 4, 7, 100, 1001, 65535):  # k pi/2 to about 64 bits, as a sum of two doubles
        head = float(k * pi / 2)
        near.append(np.longdouble(head) + np.longdouble(float(k * pi / 2 - Fraction(head))))
    out = np.concatenate([wide, rope.ravel(), [0.0, 1e-300, 0.5, 1.0, 2.0]]).astype(np.longdouble)
    out = np.concatenate([out, np.array(near, dtype=np.longdouble)])
    # and with all 64 bits of the mantissa in use: nudge each by a few long double ulps
    return np.concatenate([out, out * (1 + np.longdouble(3) * np.finfo(np.longdouble).eps)])


def _exact_pi_string() -> str:
    with localcontext() as ctx:
        ctx.prec = DIGITS
        return str(16 * _arctan_inverse(5) - 4 * _arctan_inverse(239))


@pytest.mark.parametrize("name", ["sin", "cos"])
def test_portable_sin_and_cos_are_within_a_few_ulps(name):
    xs = _angles()
    got = (portable_sin if name == "sin" else portable_cos)(xs)
    assert got.dtype == np.longdouble and got.shape == xs.shape
    worst = 0.0
    for x, value in zip(xs, got):
        exact = _exact_sin_cos(x)[0 if name == "sin" else 1]
        error = _ulps(value, exact)
        assert error <= ULPS, f"{name}({float(x)!r}) is off by {error:.2f} long double ulps"
        worst = max(worst, error)
    assert worst > 0  # the comparison does see long double rounding (it is not vacuous)


def test_portable_sin_and_cos_keep_the_shape_and_give_nan_where_undefined():
    xs = np.array([[0.0, np.inf], [-np.inf, np.nan]], dtype=np.longdouble)
    for function in (portable_sin, portable_cos):
        got = function(xs)
        assert got.shape == (2, 2)
        assert np.isnan(got[0, 1]) and np.isnan(got[1, 0]) and np.isnan(got[1, 1])
    assert portable_sin(xs)[0, 0] == 0 and portable_cos(xs)[0, 0] == 1
    assert portable_sin(np.longdouble(1)).shape == ()


def test_portable_sin_and_cos_agree_with_the_c_library_to_a_few_ulps_at_rope_angles():
    """A cross-check with sinl and cosl where they are good, over every angle a test can use."""
    angles = (np.arange(512, dtype=np.longdouble)[:, None]
              * np.exp(-np.arange(0, 32, 2, dtype=np.longdouble) / 32 * np.log(np.longdouble(10000)))).ravel()
    eps = np.finfo(np.longdouble).eps
    assert np.max(np.abs(portable_sin(angles) - np.sin(angles))) <= 4 * eps
    assert np.max(np.abs(portable_cos(angles) - np.cos(angles))) <= 4 * eps


REFERENCE = '''
import numpy as np


class Solution:
    dtype = np.float64

    def f(self, x):
        x = np.asarray(x, dtype=self.dtype)
        return np.stack([np.sin(x), np.cos(x), np.exp(x)])
'''


def test_the_long_double_run_uses_the_portable_functions_and_restores_numpys(tmp_path):
    path = tmp_path / "reference.py"
    path.write_text(REFERENCE, encoding="utf-8")
    problem = SimpleNamespace(slug="portable_probe", reference_path=path, method="f", arg_names=("x",),
                              interactive=False)
    xs = [0.1, -2.5, 3.0, 700.25, -0.001]
    originals = (np.sin, np.cos, np.exp)

    wide = oracle.run(problem, {"x": xs}, np.longdouble)
    ld = np.asarray(xs, dtype=np.longdouble)
    expected = np.stack([portable_sin(ld), portable_cos(ld), portable_exp(ld)])
    assert wide.dtype == np.longdouble
    assert np.array_equal(wide, expected)  # bit for bit: the portable versions ran

    plain = oracle.run(problem, {"x": xs}, np.float64)  # float64 keeps numpy's own functions
    assert np.array_equal(plain, np.stack([np.sin(xs), np.cos(xs), np.exp(xs)]))
    assert (np.sin, np.cos, np.exp) == originals


def test_only_plain_calls_on_long_double_arrays_are_redirected():
    ld = np.array([1.0, 2.0], dtype=np.longdouble)
    original_sin, original_cos = np.sin, np.cos
    with oracle._portable_transcendentals():
        assert np.sin(1.0) == original_sin(1.0)  # float64: numpy's own
        assert np.array_equal(np.sin(ld), portable_sin(ld))
        out = np.empty(2, dtype=np.longdouble)
        np.cos(ld, out=out)  # with more arguments than x: numpy's own ufunc, as asked
        assert np.array_equal(out, original_cos(ld))


def _exact_log(x: np.longdouble) -> Decimal:
    """ln x to about 80 digits, from the exact value of the long double x (decimal's own ln)."""
    exact = _fraction(x)
    with localcontext() as ctx:
        ctx.prec = DIGITS
        return (Decimal(exact.numerator) / Decimal(exact.denominator)).ln()


def test_portable_log_is_within_a_few_ulps():
    rng = np.random.default_rng(7)
    wide = np.exp2(rng.uniform(-16000, 16000, 40).astype(np.longdouble)) * rng.uniform(0.5, 1, 40)
    near_one = 1 + rng.uniform(-0.3, 0.3, 40) * np.exp2(rng.uniform(-60, 0, 40))
    special = ["1e-4930", "1e-300", "0.5", "0.7071067811865476", "0.7071067811865475", "1.5", "2", "1e4", "1e4900"]
    xs = np.concatenate([wide.astype(np.longdouble), near_one.astype(np.longdouble),
                         np.array([np.longdouble(s) for s in special])])
    xs = np.concatenate([xs, xs * (1 + np.longdouble(3) * np.finfo(np.longdouble).eps)])
    got = oracle.portable_log(xs)
    assert got.dtype == np.longdouble and got.shape == xs.shape
    worst = 0.0
    for x, value in zip(xs, got):
        if x == 1:
            assert value == 0
            continue
        error = _ulps(value, _exact_log(x))
        assert error <= ULPS, f"log({x!r}) is off by {error:.2f} long double ulps"
        worst = max(worst, error)
    assert worst > 0


def test_portable_log_at_the_ends_of_its_domain():
    xs = np.array([0.0, -1.0, np.inf, np.nan, 1.0], dtype=np.longdouble)
    got = oracle.portable_log(xs)
    assert got[0] == -np.inf and np.isnan(got[1]) and got[2] == np.inf and np.isnan(got[3]) and got[4] == 0


def test_a_reference_calling_np_log_in_long_double_gets_the_portable_one(monkeypatch):
    seen = []
    monkeypatch.setattr(oracle, "portable_log", lambda x: seen.append(x) or np.zeros_like(x))
    with oracle._portable_transcendentals():
        np.log(np.array([2.0], dtype=np.longdouble))
        np.log(np.array([2.0]))  # float64 keeps numpy's own
    assert len(seen) == 1


def test_out_argument_gets_the_portable_version_and_other_arguments_are_refused(monkeypatch):
    """np.exp(x, out=y) in long double once went to the C library's expl (flash's first reference)."""
    monkeypatch.setattr(oracle, "portable_exp", lambda x: np.full_like(x, 7))
    x = np.array([1.0, 2.0], dtype=np.longdouble)
    with oracle._portable_transcendentals():
        out = np.empty_like(x)
        assert np.exp(x, out=out) is out and out.tolist() == [7, 7]
        positional = np.empty_like(x)
        np.exp(x, positional)
        assert positional.tolist() == [7, 7]
        with pytest.raises(ProblemError, match=r"np\.exp on long doubles with arguments other than out="):
            np.exp(x, where=x > 1)
