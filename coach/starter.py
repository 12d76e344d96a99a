"""A starter file for a problem: the class, the method with its arguments, the shapes, and a
body that raises NotImplementedError (so judging it gives RE on the first test, not a crash)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from problems import Problem
from problems.package import Arg, shown


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
        """Called once per test, before the first step. Keep what later steps need on self.
{_wrapped(_arriving([by_name[name] for name in problem.constructor]))}
{chr(10).join(_described(problem, by_name[name]) for name in problem.constructor)}{derived}
        """
        {todo.format("__init__")}

    def {problem.method}(self, x):
        """Called once per row of {stream.name} ({", ".join(stream.shape)}), in order t = 0, 1, ...: x is row t,
        a list of {row} {"ints" if stream.integer or stream.is_mask else "numbers"}; row t + 1 arrives only after this
        call has returned.
{_wrapped("Return: row t of the output, " + _returned(problem, problem.output_shape[1:]) + ".")}
        """
        {todo.format(problem.method)}
'''
    return header + f'''

class Solution:
    def {problem.method}(self, {", ".join(problem.arg_names)}):
        """{_wrapped(_arriving(list(problem.args))).lstrip()}
{chr(10).join(_described(problem, arg) for arg in problem.args)}{derived}
{_wrapped("Return: " + _returned(problem, problem.output_shape) + ".")}
        """
        {todo.format(problem.method)}
'''


def _arriving(args: list[Arg]) -> str:
    """How the arguments arrive and what to convert them with, for the kinds among `args` only."""
    ways = []
    if any(arg.is_array and not (arg.integer or arg.is_mask) for arg in args):
        ways.append("np.asarray(x, dtype=np.float64) for values")
    if any(arg.is_array and (arg.integer or arg.is_mask) for arg in args):
        masks = any(arg.is_mask for arg in args)
        ways.append(f"np.asarray(x, dtype=np.int64) for ints{' and masks' if masks else ''}")
    kinds = [f"an array as nested lists ({', '.join(ways)})"] if ways else []
    kinds += [said for said, present in (("a float as a Python float", any(arg.is_scalar for arg in args)),
                                         ("an int as a Python int", any(arg.size is not None for arg in args)))
              if present]
    return f"Arguments, as a JSON decoder gives them: {', '.join(kinds)}:" if kinds else ""


def _wrapped(text: str) -> str:
    """A docstring paragraph of the starter, indented under the method."""
    glued = text.replace("(x, dtype", "(x,\0dtype")  # a conversion is never broken across lines
    return textwrap.fill(glued, width=104, initial_indent=" " * 8, subsequent_indent=" " * 8,
                         break_long_words=False, break_on_hyphens=False).replace("\0", " ")


def _returned(problem: Problem, shape: tuple[str, ...]) -> str:
    """What the method returns, in the starter's words: one number, integers, or arrays together."""
    precision = "" if problem.exact else ", full precision"
    if not shape:
        return ("one integer (a Python int or a numpy integer)" if problem.exact
                else "one number (a float, or a numpy array holding one element)") + precision
    element = "integers" if problem.exact else "numbers"
    container = "a list or a numpy array" if len(shape) == 1 else "a list of lists or a numpy array"
    if shape[0].isdigit():  # several arrays returned together (output_shape's literal first axis)
        part = ", ".join(shape[1:])
        return (f"{shape[0]} arrays of {element} of shape ({part}), in the order the statement's Output gives: a tuple "
                f"or list of them, or one numpy array of shape ({', '.join(shape)}){precision}")
    return f"shape ({', '.join(shape)}), {element}: {container}{precision}"


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
