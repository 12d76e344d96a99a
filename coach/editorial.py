"""The editorial: the problem's idea and its bundled accepted solutions, each with its approach (prose
in English and Chinese, time and memory, from the package's editorial.toml) and its code, shown once
the user has solved the problem (an AC on its full test set) or asks anyway. Read from the files, no
judging: the terminal prints it, the web pages lay it out file by file."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from coach import history
from problems import Problem, ProblemError
from problems.bundled import SOLUTIONS, bundled
from problems.editorial import Writeup, editorial_path, read_editorial_file
from problems.package import shown


@dataclass(frozen=True)  # shared by every answer from the cache
class Solution:
    name: str  # the file's name
    path: str  # as the terminal shows it (solutions/<slug>/accepted/<name>)
    description: str  # its first comment line, without "# Accepted:"
    source: str
    time: str = ""  # from editorial.toml: "O(h_q·T²·d_k)"; empty when the package has no usable one
    memory: str = ""
    prose: dict[str, str] = field(default_factory=dict)  # language -> how the route works


@dataclass
class Editorial:
    open: bool  # solved, or asked anyway
    message: str  # why it is closed, or what it holds
    attempts: int
    solutions: list[Solution] = field(default_factory=list)
    idea: dict[str, str] = field(default_factory=dict)  # language -> the problem's key insight

    def as_dict(self) -> dict:
        return {"open": self.open, "message": self.message, "attempts": self.attempts, "idea": self.idea,
                "solutions": [vars(s) for s in self.solutions]}


# Why an editorial is closed, in each language the page has (`lang` chooses; English by default).
CLOSED = {
    "en": lambda slug, tries: f"{slug}: not solved yet ({tries} attempt{'s' * (tries != 1)}, no AC on the full test "
                              "set). The editorial shows the accepted solutions; try a hint first.",
    "zh": lambda slug, tries: f"{slug}：尚未解出（已尝试 {tries} 次，全部测试点上还没有通过）。"
                              "题解给出各个通过的解法；不妨先看提示。",
}


def editorial(problem: Problem, force: bool = False, lang: str = "en") -> Editorial:
    past = history.judgings(problem.slug)
    tries = len(history.attempts(problem.slug, past))
    if not force and not history.accepted(problem.slug, past, len(problem.test_files())):
        return Editorial(False, CLOSED.get(lang, CLOSED["en"])(problem.slug, tries), tries)
    return opened(problem, tries)


def opened(problem: Problem, tries: int = 0) -> Editorial:
    """The editorial, open (a class opens it when class.toml says so)."""
    idea, solutions, defect = explained(problem)
    message = f"{problem.title} ({problem.id}): {len(solutions)} accepted solutions, each a different route."
    if defect:  # make verify refuses such a package; the code is still worth showing
        message += f" (No prose: {defect}.)"
    return Editorial(True, message, tries, solutions, idea)


def accepted_solutions(problem: Problem) -> list[Solution]:
    """The problem's bundled accepted solutions with their approaches, in the editorial's order (a class's
    editorial too)."""
    return explained(problem)[1]


def explained(problem: Problem) -> tuple[dict[str, str], list[Solution], str | None]:
    """The idea, the accepted solutions in editorial.toml's order, and what is wrong with that file when it
    cannot be used (then the solutions come in file order, without prose)."""
    files = tuple((e.path, e.path.stat().st_mtime_ns) for e in bundled(problem) if e.expected == "AC")
    path = editorial_path(problem)
    accepted = SOLUTIONS / problem.slug / "accepted"
    idea, solutions, defect = _solutions(files, accepted, path, path.stat().st_mtime_ns if path.is_file() else None)
    return dict(idea), list(solutions), defect


@lru_cache(maxsize=64)
def _solutions(files: tuple[tuple[Path, int], ...], accepted: Path, path: Path,
               _: int | None) -> tuple[tuple[tuple[str, str], ...], tuple[Solution, ...], str | None]:
    """The files read once while they stay as they are (keyed on their mtimes): the page asks often."""
    try:
        writeup: Writeup | None = read_editorial_file(path, accepted)
        defect = None
    except ProblemError as exc:
        writeup, defect = None, str(exc)
    sources = {p.name: p for p, _ in files}
    order = [a.file for a in writeup.approaches if a.file in sources] if writeup else list(sources)
    approaches = {a.file: a for a in writeup.approaches} if writeup else {}
    out = []
    for name in order:
        text = sources[name].read_text(encoding="utf-8")
        step = approaches.get(name)
        out.append(Solution(name, shown(sources[name]), description(text), text, step.time if step else "",
                            step.memory if step else "", dict(step.prose) if step else {}))
    return tuple(writeup.idea.items()) if writeup else (), tuple(out), defect


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
