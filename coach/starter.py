"""A starter file for a problem: the class, the method with its arguments, the shapes, and a
body that raises NotImplementedError (so judging it gives RE on the first test, not a crash)."""

from __future__ import annotations

from pathlib import Path

from problems import Problem
from problems.package import shown


def starter_text(problem: Problem) -> str:
    header = f'''"""{problem.title} ({problem.id}). Statement: {shown(problem.spec_path)}

Judge it:  make judge SOL=<this file>     (or .venv/bin/python -m judge <this file>)
"""

import numpy as np
'''
    derived = "".join(f"\n            {name} = {expr}" for name, expr in problem.derived.items())
    derived = derived and "\n        Derived sizes:" + derived
    todo = f'raise NotImplementedError("write {{}}: see {shown(problem.spec_path)}")'
    if problem.interactive:
        by_name = {arg.name: arg for arg in problem.args}
        assert problem.stream is not None  # an interactive problem's problem.toml names it
        stream = by_name[problem.stream]
        row = ", ".join(stream.shape[1:])
        return header + f'''

class Solution:
    def __init__(self, {", ".join(problem.constructor)}):
        """Called once per test, before the first step (lists of lists, as a JSON decoder gives
        them; np.asarray(..., dtype=np.float64)). Keep what later steps need on self.
{chr(10).join(_described(problem, by_name[name]) for name in problem.constructor)}{derived}
        """
        {todo.format("__init__")}

    def {problem.method}(self, x):
        """Called once per row of {stream.name} ({", ".join(stream.shape)}), in order t = 0, 1, ...: x is row t,
        a list of {row} numbers; row t + 1 arrives only after this call has returned.
        Return: row t of the output, shape ({", ".join(problem.output_shape[1:])}), a list or a numpy array.
        """
        {todo.format(problem.method)}
'''
    return header + f'''

class Solution:
    def {problem.method}(self, {", ".join(problem.arg_names)}):
        """Arguments (lists of lists, as a JSON decoder gives them; np.asarray(..., dtype=np.float64)):
{chr(10).join(_described(problem, arg) for arg in problem.args)}{derived}
        Return: shape ({", ".join(problem.output_shape)}), a list of lists or a numpy array, full precision.
        """
        {todo.format(problem.method)}
'''


def _described(problem: Problem, arg) -> str:
    """One argument's line in the starter's docstring: its shape and values, or the size it is."""
    if arg.is_mask:
        what = (f"shape ({', '.join(arg.shape)}), each element 0 or 1, where {arg.mask_hidden} hides it; "
                "every row of the last axis keeps a visible element")
    elif arg.is_array:
        lo, hi = arg.range_text() if arg.bounds else arg.range or ("", "")
        kind = "ints" if arg.integer else "values"
        what = f"shape ({', '.join(arg.shape)}), {kind} in [{lo}, {hi}]"
    elif arg.is_scalar:
        what = f"float in [{arg.range[0]:g}, {arg.range[1]:g}]"
    elif arg.is_int_range:
        what = f"int in [{arg.range[0]}, {arg.range[1]}]"
    else:
        size = problem.sizes[arg.size]
        what = f"int, the size {arg.size}, in [{size.min}, {size.max}]"
    return f"            {arg.name}: {what}" + (f"; {arg.description}" if arg.description else "")


def write_starter(problem: Problem, target: Path) -> Path:
    """Write the starter to `target`; never over an existing file (FileExistsError)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target, "x", encoding="utf-8") as f:  # "x": fails if it exists, even in a race
        f.write(starter_text(problem))
    return target
