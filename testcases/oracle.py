"""Running a problem's reference solution (problems/<slug>/reference.py) on one input.

The engine knows a problem only through its package: the method name and argument order come
from problem.toml, the computation from reference.py. The reference computes in its class
attribute `dtype`; setting np.longdouble on an instance gives the independent, more precise
evaluation the conditioning check compares against.
"""

from __future__ import annotations

import importlib.util
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
    """The reference's output for `inputs` (argument name -> value), computed in `dtype`."""
    solution = _module(problem).Solution()
    solution.dtype = dtype
    with np.errstate(all="ignore"):  # a non-finite result is judged by the caller, not warned about
        out = getattr(solution, problem.method)(*(inputs[name] for name in problem.arg_names))
    return np.asarray(out, dtype=dtype)


def require_wide_longdouble() -> None:
    """Refuse to generate where np.longdouble is plain float64 (then nothing would be checked)."""
    if np.finfo(np.longdouble).nmant <= np.finfo(np.float64).nmant:
        raise ProblemError("numpy: np.longdouble is float64 on this platform, so tests cannot be "
                           "checked for conditioning; generate them on x86-64 Linux")
