"""The bundled submissions under solutions/<slug>/<expected verdict>/ (Kattis' folder names)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from problems import Problem

SOLUTIONS = Path(__file__).resolve().parent.parent / "solutions"
EXPECTED = {
    "accepted": "AC",
    "wrong_answer": "WA",
    "time_limit_exceeded": "TLE",
    "memory_limit_exceeded": "MLE",
    "run_time_error": "RE",
    "output_limit_exceeded": "OLE",
    "compile_error": "CE",
}


@dataclass(frozen=True)
class Bundled:
    path: Path
    expected: str

    @property
    def label(self) -> str:
        return f"{self.path.parent.name}/{self.path.name}"


def bundled(problem: Problem, root: Path = SOLUTIONS) -> list[Bundled]:
    """A problem's bundled submissions, in folder order then file name."""
    found = []
    for folder, verdict in EXPECTED.items():
        found += [Bundled(p, verdict) for p in sorted((root / problem.slug / folder).glob("*.py"))]
    return found
