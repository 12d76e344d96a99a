"""The editorial: a problem's bundled accepted solutions, each with its one-line description, shown
once the user has solved the problem (an AC on its full test set) or asks anyway. Read from the
files, no judging: the terminal prints it, the web page lays it out file by file."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from coach import history
from problems import Problem
from problems.bundled import bundled
from problems.package import shown


@dataclass(frozen=True)  # shared by every answer from the cache
class Solution:
    name: str  # the file's name
    path: str  # as the terminal shows it (solutions/<slug>/accepted/<name>)
    description: str  # its first comment line, without "# Accepted:"
    source: str


@dataclass
class Editorial:
    open: bool  # solved, or asked anyway
    message: str  # why it is closed, or what it holds
    attempts: int
    solutions: list[Solution] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"open": self.open, "message": self.message, "attempts": self.attempts,
                "solutions": [vars(s) for s in self.solutions]}


def editorial(problem: Problem, force: bool = False) -> Editorial:
    past = history.judgings(problem.slug)
    tries = len(history.attempts(problem.slug, past))
    if not force and not history.accepted(problem.slug, past, len(problem.test_files())):
        return Editorial(False, f"{problem.slug}: not solved yet ({tries} attempt{'s' * (tries != 1)}, no AC on "
                                "the full test set). The editorial shows the accepted solutions; try a hint first.",
                         tries)
    solutions = accepted_solutions(problem)
    return Editorial(True, f"{problem.title} ({problem.id}): {len(solutions)} accepted solutions, each a different "
                           "route.", tries, solutions)


def accepted_solutions(problem: Problem) -> list[Solution]:
    """The problem's bundled accepted solutions, each with its description (a class's editorial too)."""
    return list(_solutions(tuple((e.path, e.path.stat().st_mtime_ns) for e in bundled(problem) if e.expected == "AC")))


@lru_cache(maxsize=64)
def _solutions(files: tuple[tuple[Path, int], ...]) -> tuple[Solution, ...]:
    """The files read once while they stay as they are (keyed on their mtimes): the page asks often."""
    out = []
    for path, _ in files:
        text = path.read_text(encoding="utf-8")
        out.append(Solution(path.name, shown(path), description(text), text))
    return tuple(out)


def description(source: str) -> str:
    """A bundled solution's description: its first comment line, or its module docstring's first line."""
    for line in source.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            return re.sub(r"^#\s*(Accepted:\s*)?", "", stripped).strip()
        if stripped.startswith(('"""', "'''")):
            return re.sub(r"^(Accepted:\s*)", "", stripped.strip("\"' ")).strip()
        break
    return ""
