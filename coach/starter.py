"""A starter file for a problem: the class, the method with its arguments, the shapes, and a
body that raises NotImplementedError (so judging it gives RE on the first test, not a crash)."""

from __future__ import annotations

from pathlib import Path

from problems import Problem
from problems.package import shown


def starter_text(problem: Problem) -> str:
    lines = []
    for arg in problem.args:
        if arg.is_mask:
            what = (f"shape ({', '.join(arg.shape)}), each element 0 or 1, where {arg.mask_hidden} hides it; "
                    "every row of the last axis keeps a visible element")
        elif arg.is_array:
            what = f"shape ({', '.join(arg.shape)}), values in [{arg.range[0]}, {arg.range[1]}]"
        else:
            what = f"int, the size {arg.size}"
        lines.append(f"            {arg.name}: {what}" + (f"; {arg.description}" if arg.description else ""))
    derived = "".join(f"\n            {name} = {expr}" for name, expr in problem.derived.items())
    return f'''"""{problem.title} ({problem.id}). Statement: {shown(problem.spec_path)}

Judge it:  make judge SOL=<this file>     (or .venv/bin/python -m judge <this file>)
"""

import numpy as np


class Solution:
    def {problem.method}(self, {", ".join(problem.arg_names)}):
        """Arguments (lists of lists, as a JSON decoder gives them; np.asarray(..., dtype=np.float64)):
{chr(10).join(lines)}{derived and chr(10) + "        Derived sizes:" + derived}
        Return: shape ({", ".join(problem.output_shape)}), a list of lists or a numpy array, full precision.
        """
        raise NotImplementedError("write {problem.method}: see {shown(problem.spec_path)}")
'''


def write_starter(problem: Problem, target: Path) -> Path:
    """Write the starter to `target`; never over an existing file (FileExistsError)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target, "x", encoding="utf-8") as f:  # "x": fails if it exists, even in a race
        f.write(starter_text(problem))
    return target
