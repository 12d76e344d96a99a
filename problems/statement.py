"""What the engines read from a statement's prose (spec.md): its numbered steps and its sections,
which hints and wrong_answer/steps.toml name."""

from __future__ import annotations

import re

from problems.package import Problem

_STEP = re.compile(r"^\*\*(\d+)\. (.+?)[.。]\*\*", re.M)
_SECTION = re.compile(r"^##+ (.+?)\s*$", re.M)


def statement_steps(problem: Problem, lang: str = "en") -> dict[int, str]:
    """The numbered steps of the statement's "What to compute": {1: "Projections", ...}; in zh those
    of spec.zh.md (the English ones where it has none)."""
    path = problem.spec_path.with_name("spec.zh.md") if lang == "zh" else problem.spec_path
    if not path.is_file():
        path = problem.spec_path
    if not path.is_file():
        return {}
    return {int(n): title for n, title in _STEP.findall(path.read_text(encoding="utf-8"))}


def statement_sections(problem: Problem) -> list[str]:
    """The titles of the statement's sections (## and deeper): "Output", "Checking", ..."""
    if not problem.spec_path.is_file():
        return []
    return _SECTION.findall(problem.spec_path.read_text(encoding="utf-8"))
