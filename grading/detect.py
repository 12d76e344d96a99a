"""Which problem a submission solves, from the method names its compile step found.

The file is parsed in a walled child of the sandbox (sandbox/inside/runner.py: compile_only), never
in the judge's own process: a hostile source can make a parser use unbounded memory and time.
"""

from __future__ import annotations

from problems import Problem, all_problems


def detect_problem(methods: list[str]) -> tuple[Problem | None, str]:
    """The problem whose method the file's Solution defines, or None with the reason."""
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
