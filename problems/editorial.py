"""A package's editorial.toml: the idea and one approach per accepted solution, in English and
Chinese, with each approach's time and memory; the editorial pages read it, `make verify` checks it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from problems.package import Problem, ProblemError, read_toml, shown

LANGUAGES = ("en", "zh")
APPROACH_KEYS = ("file", "time", "memory", *LANGUAGES)


@dataclass(frozen=True)
class Approach:
    file: str  # a file name in solutions/<slug>/accepted/
    time: str  # "O(B·H·T²·d_k)", in the statement's size names
    memory: str  # the extra memory beyond the inputs and the output
    prose: dict[str, str]  # language -> how the route works and when to pick it


@dataclass(frozen=True)
class Writeup:
    idea: dict[str, str]  # language -> what the problem asks, the insight, the numerical trap
    approaches: tuple[Approach, ...]  # in the order a reader should meet them


def editorial_path(problem: Problem) -> Path:
    return problem.root / "editorial.toml"


def read_editorial(problem: Problem, accepted: Path) -> Writeup:
    """editorial.toml checked against the accepted folder's files: every defect (a missing file, key,
    language or approach, an unknown file) is a ProblemError of one line naming the file and the place."""
    return read_editorial_file(editorial_path(problem), accepted)


def read_editorial_file(path: Path, accepted: Path) -> Writeup:
    """read_editorial on a path (a cache's key cannot hold the Problem)."""
    where = shown(path)
    data = read_toml(path, "every package explains its accepted solutions there", where)
    unknown = sorted(set(data) - {"idea", "approach"})
    if unknown:
        raise ProblemError(f"{where}: unknown key '{unknown[0]}' (known: idea, approach)")
    idea = data.get("idea")
    if not isinstance(idea, dict):
        raise ProblemError(f"{where}: no [idea] table (the idea in {' and '.join(LANGUAGES)})")
    texts = {lang: _text(idea, lang, where, "idea") for lang in LANGUAGES}
    files = sorted(p.name for p in accepted.glob("*.py"))
    raw = data.get("approach", [])
    if not isinstance(raw, list):
        raise ProblemError(f"{where}: 'approach' must be [[approach]] tables, one per accepted solution")
    approaches: list[Approach] = []
    for number, table in enumerate(raw, 1):
        approaches.append(_approach(table, f"approach[{number}]", where, files, approaches, accepted))
    covered = {a.file for a in approaches}
    missing = [name for name in files if name not in covered]
    if missing:
        raise ProblemError(f"{where}: no [[approach]] for {missing[0]} ({shown(accepted / missing[0])})")
    return Writeup(texts, tuple(approaches))


def _approach(table: object, here: str, where: str, files: list[str], before: list[Approach],
              accepted: Path) -> Approach:
    if not isinstance(table, dict):
        raise ProblemError(f"{where}: {here} must be a table ([[approach]])")
    unknown = sorted(set(table) - set(APPROACH_KEYS))
    if unknown:
        raise ProblemError(f"{where}: {here}: unknown key '{unknown[0]}' (known: {', '.join(APPROACH_KEYS)})")
    name = _text(table, "file", where, here)
    if name not in files:
        raise ProblemError(f"{where}: {here}.file: {name} is not a file of {shown(accepted)}")
    if any(a.file == name for a in before):
        raise ProblemError(f"{where}: {here}.file: {name} has an approach already (each file exactly once)")
    time, memory = (_complexity(table, key, where, here) for key in ("time", "memory"))
    return Approach(name, time, memory, {lang: _text(table, lang, where, here) for lang in LANGUAGES})


def _text(table: dict, key: str, where: str, here: str) -> str:
    value = table.get(key)
    if not isinstance(value, str) or not value.strip():
        said = "missing" if value is None else "empty" if isinstance(value, str) else f"not text ({value!r})"
        raise ProblemError(f"{where}: {here}.{key} is {said}")
    return value.strip()


def _complexity(table: dict, key: str, where: str, here: str) -> str:
    value = _text(table, key, where, here)
    if not (value.startswith("O(") and value.endswith(")")):
        raise ProblemError(f"{where}: {here}.{key} must be a complexity O(...) in the statement's size names, "
                           f"got {value!r}")
    return value
