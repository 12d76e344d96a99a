"""Which problem a submission solves, read from its source without running it.

Detection parses the file (ast) instead of importing it: submission code runs only in the sandbox.
"""

from __future__ import annotations

import ast

from problems import Problem, all_problems


def solution_methods(source: bytes) -> list[str] | None:
    """Method names of the top-level class Solution; None when the file does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Solution":
            return [n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return []


def detect_problem(source: bytes) -> tuple[Problem | None, str]:
    """The problem whose method the file's Solution defines, or None with the reason."""
    methods = solution_methods(source)
    if methods is None:
        return None, "syntax"
    known = all_problems()
    matches = [p for p in known if p.method in methods]
    if len(matches) == 1:
        return matches[0], ""
    if len(matches) > 1:
        return None, ("its Solution defines methods of several problems ("
                      + ", ".join(p.slug for p in matches) + "): choose one with --problem")
    wanted = ", ".join(f"{p.method} ({p.slug})" for p in known)
    if not methods:
        return None, f"it defines no class Solution with a method; expected one of {wanted}"
    return None, (f"its Solution defines {', '.join(methods)}, which matches no problem; "
                  f"expected one of {wanted}")
