"""Running a problem's reference solution (problems/<slug>/reference.py) on one input.

The engine knows a problem only through its package: the method name and argument order come
from problem.toml, the computation from reference.py. The reference computes in its class
attribute `dtype`; setting np.longdouble on an instance gives the independent, more precise
evaluation the conditioning check compares against.

The rule for a reference: the stored expected outputs are that long double evaluation, so they
must be the same bits on every machine. Basic operations (+ - * /, sqrt, rint, ldexp, reductions,
matrix products) are correctly rounded everywhere; the C library's long double transcendentals
are not. While the reference runs in long double, np.exp, np.sin, np.cos and np.log on long double
arrays are therefore replaced by `portable_exp`, `portable_sin`, `portable_cos` and `portable_log`,
built from basic operations only (within a few long double ulps). A reference calls them as np.exp,
np.sin, np.cos, np.log (never `from numpy import exp`, which would keep the original) and uses no
other transcendental function in long double: a power b ** x is np.exp(x * np.log(b)), or with a
constant ln b rounded to the working dtype exactly (problems/mla/reference.py shows how). Another
function needs its portable version here first.
"""

from __future__ import annotations

import contextlib
import importlib.util
import math
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from problems import Problem, ProblemError

_modules: dict[Path, ModuleType] = {}


def _module(problem: Problem) -> ModuleType:
    path = problem.reference_path
    if path not in _modules:
        spec = importlib.util.spec_from_file_location(f"_reference_{problem.slug}", path)
        if spec is None or spec.loader is None or not path.is_file():
            raise ProblemError(f"{path}: no such file (every problem package needs reference.py)")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _modules[path] = module
    return _modules[path]


def run(problem: Problem, inputs: dict, dtype: type = np.float64) -> np.ndarray:
    """The reference's output for `inputs` (argument name -> value), computed in `dtype`.

    In np.longdouble, np.exp, np.sin, np.cos and np.log are replaced by portable versions while the
    reference runs: the stored expected outputs come from this evaluation and must not depend on
    the machine.
    """
    reference = type("Reference", (_module(problem).Solution,), {"dtype": dtype})  # dtype set before __init__
    wide = np.dtype(dtype) == np.dtype(np.longdouble)
    out: Any
    with np.errstate(all="ignore"), (_portable_transcendentals() if wide else contextlib.nullcontext()):
        if problem.interactive:  # constructed once, then fed the stream one row at a time
            solution = reference(*(inputs[name] for name in problem.constructor))
            step = getattr(solution, problem.method)
            out = [np.asarray(step(row), dtype=dtype) for row in inputs[problem.stream]]
        else:
            out = getattr(reference(), problem.method)(*(inputs[name] for name in problem.arg_names))
    return np.asarray(out, dtype=dtype)


# -- exp in long double from +, -, *, / only ------------------------------------------------------
# numpy's long double exp is the C library's expl, which on x86-64 uses the x87 unit's own
# transcendental instructions: their last bits differ between CPUs, and so did the stored tests.
# Basic operations are correctly rounded by IEEE 754 on every CPU, so an exp built from them alone
# (Cody-Waite reduction by ln 2, a Taylor polynomial, an exact power of two) gives the same bits
# everywhere, within about 2 long double ulps of the true value.

_LN2 = Fraction("0.6931471805599453094172321214581765680755001343602552541206800094933936219696947")
_LN2_HI_EXACT = Fraction(round(_LN2 * 2**48), 2**48)  # 48 bits: k * _LN2_HI is exact for |k| < 2**16
_LN2_HI = np.longdouble(float(_LN2_HI_EXACT))
_LN2_LO = np.longdouble(float(_LN2 - _LN2_HI_EXACT)) + np.longdouble(
    float(_LN2 - _LN2_HI_EXACT - Fraction(float(_LN2 - _LN2_HI_EXACT))))
_TAYLOR = [np.longdouble(1)]
for _n in range(1, 22):
    _TAYLOR.append(_TAYLOR[-1] / np.longdouble(_n))
_UNDERFLOW = np.longdouble(-11400)  # exp below this is 0 in long double


def portable_exp(x: np.ndarray) -> np.ndarray:
    """exp of a long double array, bit-identical on every x86-64 machine."""
    x = np.asarray(x, dtype=np.longdouble)
    out = np.zeros_like(x)
    live = x >= _UNDERFLOW
    y = x[live]
    k = np.rint(y / _LN2_HI)
    r = (y - k * _LN2_HI) - k * _LN2_LO  # the first difference is exact (Sterbenz)
    poly = np.full_like(r, _TAYLOR[-1])
    for c in reversed(_TAYLOR[:-1]):
        poly = poly * r + c
    out[live] = np.ldexp(poly, k.astype(np.int64))
    return out


# -- sin and cos in long double from +, -, *, / only ----------------------------------------------
# The same reasons, the same method: Cody-Waite reduction by pi/2 with a three-part constant, the
# first two parts of 48 bits so that k * part is exact for |k| < 2**16 (angles below about 1e5;
# a rotary embedding's angles are positions times frequencies at most 1), then Taylor polynomials
# of sin and cos on [-pi/4, pi/4] picked by the quadrant k mod 4.

def _nearest_longdouble(x: Fraction) -> np.longdouble:
    """The long double nearest the rational x, from exact operations (float() keeps 53 bits only)."""
    if x == 0:
        return np.longdouble(0)
    sign, x = (-1, -x) if x < 0 else (1, x)
    shift = 64 - (x.numerator.bit_length() - x.denominator.bit_length())
    if x * Fraction(2) ** shift >= 2**64:
        shift -= 1
    mantissa = round(x * Fraction(2) ** shift)  # 64 bits (or 2**64 itself): exact as two halves
    hi, lo = divmod(mantissa, 2**32)
    return np.longdouble(sign) * np.ldexp(np.longdouble(hi) * np.longdouble(2**32) + np.longdouble(lo), -shift)


_HALF_PI = Fraction("1.570796326794896619231321691639751442098584699687552910487472296153908203143104499314")
_HALF_PI_1_EXACT = Fraction(round(_HALF_PI * 2**47), 2**47)  # 48 bits
_HALF_PI_2_EXACT = Fraction(round((_HALF_PI - _HALF_PI_1_EXACT) * 2**95), 2**95)  # the next 48 bits
_HALF_PI_1 = _nearest_longdouble(_HALF_PI_1_EXACT)
_HALF_PI_2 = _nearest_longdouble(_HALF_PI_2_EXACT)
_HALF_PI_3 = _nearest_longdouble(_HALF_PI - _HALF_PI_1_EXACT - _HALF_PI_2_EXACT)
_TWO_OVER_PI = _nearest_longdouble(1 / _HALF_PI)
_SIN_TAYLOR = [_nearest_longdouble(Fraction((-1) ** n, math.factorial(2 * n + 1))) for n in range(12)]
_COS_TAYLOR = [_nearest_longdouble(Fraction((-1) ** n, math.factorial(2 * n))) for n in range(13)]


def _reduced(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x = k * pi/2 + r with |r| <= pi/4 (a hair more): sin r, cos r and the quadrant k mod 4."""
    k = np.rint(x * _TWO_OVER_PI)
    # k * part is exact for the first two parts and x - k * part1 is exact (Sterbenz); the later
    # differences round by at most half an ulp of r, and not at all when r is near 0 (Sterbenz).
    with np.errstate(invalid="ignore"):  # inf - inf where x is not finite: NaN, replaced below
        r = ((x - k * _HALF_PI_1) - k * _HALF_PI_2) - k * _HALF_PI_3
    r2 = r * r
    sin: np.ndarray = np.full_like(r, _SIN_TAYLOR[-1])
    for c in reversed(_SIN_TAYLOR[:-1]):
        sin = sin * r2 + c
    sin = sin * r
    cos: np.ndarray = np.full_like(r, _COS_TAYLOR[-1])
    for c in reversed(_COS_TAYLOR[:-1]):
        cos = cos * r2 + c
    quadrant = np.fmod(np.where(np.isfinite(k), k, 0), 4).astype(np.int64) % 4  # fmod is exact
    return sin, cos, quadrant


def portable_sin(x: np.ndarray) -> np.ndarray:
    """sin of a long double array, bit-identical on every x86-64 machine; NaN where x is not finite.

    Within a few long double ulps for |x| < 2**16 * pi/2; deterministic but less accurate beyond.
    """
    x = np.asarray(x, dtype=np.longdouble)
    sin, cos, quadrant = _reduced(x)
    out = np.choose(quadrant, [sin, cos, -sin, -cos])
    return np.where(np.isfinite(x), out, np.longdouble(np.nan))


def portable_cos(x: np.ndarray) -> np.ndarray:
    """cos of a long double array, bit-identical on every x86-64 machine; NaN where x is not finite.

    Within a few long double ulps for |x| < 2**16 * pi/2; deterministic but less accurate beyond.
    """
    x = np.asarray(x, dtype=np.longdouble)
    sin, cos, quadrant = _reduced(x)
    out = np.choose(quadrant, [cos, -sin, -cos, sin])
    return np.where(np.isfinite(x), out, np.longdouble(np.nan))


# -- log in long double from +, -, *, / only ------------------------------------------------------
# The same reasons again: x = m * 2**e with m in [sqrt(1/2), sqrt(2)) (frexp and a doubling are
# exact), log m = 2 atanh(s) with s = (m - 1) / (m + 1), |s| < 0.172, by its odd series, and
# e * ln 2 added from the two-part constant above (e * _LN2_HI is exact for |e| < 2**16).

_ATANH_TERMS = [_nearest_longdouble(Fraction(2, 2 * n + 1)) for n in range(16)]  # 2 / (2n + 1)
_SQRT_HALF = _nearest_longdouble(Fraction(70710678118654752440084436210484903928483593768847, 10**50))


def portable_log(x: np.ndarray) -> np.ndarray:
    """log of a long double array, bit-identical on every x86-64 machine; -inf at 0, NaN below."""
    x = np.asarray(x, dtype=np.longdouble)
    out = np.full_like(x, np.longdouble(np.nan))
    live = np.isfinite(x) & (x > 0)
    m, e = np.frexp(x[live])
    low = m < _SQRT_HALF
    m = np.where(low, m * 2, m)  # exact
    e = np.where(low, e - 1, e).astype(np.longdouble)
    s = (m - 1) / (m + 1)  # m - 1 is exact (Sterbenz)
    s2 = s * s
    poly = np.full_like(s, _ATANH_TERMS[-1])
    for c in reversed(_ATANH_TERMS[:-1]):
        poly = poly * s2 + c
    out[live] = e * _LN2_HI + (e * _LN2_LO + s * poly)
    out[x == 0] = -np.inf
    out[np.isposinf(x)] = np.inf
    return out


# np.NAME -> ours
PORTABLE = {"exp": "portable_exp", "sin": "portable_sin", "cos": "portable_cos", "log": "portable_log"}


@contextlib.contextmanager
def _portable_transcendentals():
    """np.exp, np.sin, np.cos on long double arrays replaced by the portable versions, then restored."""
    originals = {name: getattr(np, name) for name in PORTABLE}

    def replacement(name):
        original = originals[name]

        def function(x, *args, **kwargs):
            if np.asarray(x).dtype != np.longdouble:
                return original(x, *args, **kwargs)
            out = kwargs.pop("out", args[0] if len(args) == 1 else None)
            if len(args) > 1 or kwargs:
                raise ProblemError(f"reference.py: np.{name} on long doubles with arguments other than out= would "
                                   "bypass the portable version (testcases/oracle.py): call it on the values alone")
            value = globals()[PORTABLE[name]](x)  # looked up at call time
            if out is None:
                return value
            target = out[0] if isinstance(out, tuple) else out
            target[...] = value
            return target

        return function

    for name in PORTABLE:
        setattr(np, name, replacement(name))
    try:
        yield
    finally:
        for name, original in originals.items():
            setattr(np, name, original)


def require_wide_longdouble() -> None:
    """Refuse to generate where np.longdouble is plain float64 (then nothing would be checked)."""
    if np.finfo(np.longdouble).nmant <= np.finfo(np.float64).nmant:
        raise ProblemError("numpy: np.longdouble is float64 on this platform, so tests cannot be "
                           "checked for conditioning; generate them on x86-64 Linux")
