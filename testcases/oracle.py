"""Running a problem's reference solution (problems/<slug>/reference.py) on one input.

The engine knows a problem only through its package: the method name and argument order come
from problem.toml, the computation from reference.py. The reference computes in its class
attribute `dtype`; setting np.longdouble on an instance gives the independent, more precise
evaluation the conditioning check compares against.
"""

from __future__ import annotations

import contextlib
import importlib.util
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import numpy as np

from problems import Problem, ProblemError

_modules: dict[Path, ModuleType] = {}


def _module(problem: Problem) -> ModuleType:
    path = problem.reference_path
    if path not in _modules:
        spec = importlib.util.spec_from_file_location(f"_reference_{problem.slug}", path)
        if spec is None or not path.is_file():
            raise ProblemError(f"{path}: no such file (every problem package needs reference.py)")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _modules[path] = module
    return _modules[path]


def run(problem: Problem, inputs: dict, dtype: type = np.float64) -> np.ndarray:
    """The reference's output for `inputs` (argument name -> value), computed in `dtype`.

    In np.longdouble, np.exp is replaced by `portable_exp` while the reference runs: the stored
    expected outputs come from this evaluation and must not depend on the machine.
    """
    solution = _module(problem).Solution()
    solution.dtype = dtype
    wide = np.dtype(dtype) == np.dtype(np.longdouble)
    with np.errstate(all="ignore"), (_portable_transcendentals() if wide else contextlib.nullcontext()):
        out = getattr(solution, problem.method)(*(inputs[name] for name in problem.arg_names))
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


@contextlib.contextmanager
def _portable_transcendentals():
    original = np.exp

    def exp(x, *args, **kwargs):
        if not args and not kwargs and np.asarray(x).dtype == np.longdouble:
            return portable_exp(x)
        return original(x, *args, **kwargs)

    np.exp = exp
    try:
        yield
    finally:
        np.exp = original


def require_wide_longdouble() -> None:
    """Refuse to generate where np.longdouble is plain float64 (then nothing would be checked)."""
    if np.finfo(np.longdouble).nmant <= np.finfo(np.float64).nmant:
        raise ProblemError("numpy: np.longdouble is float64 on this platform, so tests cannot be "
                           "checked for conditioning; generate them on x86-64 Linux")
