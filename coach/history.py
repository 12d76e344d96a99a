"""Every judging of a user's file, in SQLite: what `list` and `history` show.

WAL mode and a busy timeout let two judgings write at once. Nothing here may cost a verdict: a
database that cannot be opened or written is reported in one line by the caller and skipped.
"""

from __future__ import annotations

import sqlite3
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

from coach.home import judge_home
from grading.session import Report

SCHEMA = """
CREATE TABLE IF NOT EXISTS judgings (
    id INTEGER PRIMARY KEY,
    time TEXT NOT NULL,            -- UTC, ISO 8601
    kind TEXT NOT NULL,            -- submit (a judging) or run (the sample or an own input)
    problem TEXT NOT NULL,         -- slug
    path TEXT NOT NULL,
    sha256 TEXT NOT NULL,          -- of the source
    verdict TEXT NOT NULL,
    passed INTEGER NOT NULL,
    total INTEGER NOT NULL,
    first_failing TEXT,            -- test name, NULL when none failed
    slowest_ms REAL,               -- CPU time of the slowest test run
    peak_mb REAL,                  -- largest peak memory of a test run
    largest_ms REAL                -- CPU time on the problem's last (largest) test, when it ran
);
CREATE INDEX IF NOT EXISTS judgings_problem ON judgings (problem, time);
"""


class HistoryError(Exception):
    """The history could not be read or written (its message names the file)."""


@dataclass
class Judging:
    time: str
    kind: str
    problem: str
    path: str
    sha256: str
    verdict: str
    passed: int
    total: int
    first_failing: str | None
    slowest_ms: float | None
    peak_mb: float | None
    largest_ms: float | None

    def as_dict(self) -> dict:
        return asdict(self)


def database(home: Path | None = None) -> Path:
    return (home or judge_home()) / "history.sqlite"


def _connect(path: Path) -> sqlite3.Connection:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(path, timeout=10)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.executescript(SCHEMA)
        return connection
    except (OSError, sqlite3.Error) as exc:
        raise HistoryError(f"{path}: {exc}") from None


def judging_of(report: Report, kind: str = "submit") -> Judging:
    """What the history keeps of one report."""
    tests = report.tests
    failure = report.first_failure
    last = report.problem.test_files()[-1].stem if report.problem and report.problem.test_files() else None
    largest = next((t.time_ms for t in tests if t.name == last and t.verdict == "AC"), None)
    return Judging(
        time=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        kind=kind,
        problem=report.problem.slug if report.problem else "?",
        path=str(Path(report.submission).resolve()),
        sha256=report.source_sha256,
        verdict=report.verdict,
        passed=report.passed,
        total=report.total,
        first_failing=failure.name if failure else None,
        slowest_ms=max((t.time_ms for t in tests if t.time_ms is not None), default=None),
        peak_mb=max((t.memory_mb for t in tests if t.memory_mb is not None), default=None),
        largest_ms=largest,
    )


def record(judging: Judging, path: Path | None = None) -> None:
    path = path or database()
    connection = _connect(path)
    try:
        with connection:
            fields = judging.as_dict()
            connection.execute(f"INSERT INTO judgings ({', '.join(fields)}) VALUES ({', '.join('?' * len(fields))})",
                               tuple(fields.values()))
    except sqlite3.Error as exc:
        raise HistoryError(f"{path}: {exc}") from None
    finally:
        connection.close()


def judgings(problem: str | None = None, path: Path | None = None) -> list[Judging]:
    """Oldest first; an absent database is an empty history."""
    path = path or database()
    if not path.exists():
        return []
    connection = _connect(path)
    try:
        names = [f for f in Judging.__dataclass_fields__]
        query = f"SELECT {', '.join(names)} FROM judgings" + (" WHERE problem = ?" if problem else "") + " ORDER BY id"
        rows = connection.execute(query, (problem,) if problem else ()).fetchall()
    except sqlite3.Error as exc:
        raise HistoryError(f"{path}: {exc}") from None
    finally:
        connection.close()
    return [Judging(*row) for row in rows]


def standing(slug: str, past: list[Judging]) -> dict:
    """One problem as the problem list shows it: new, tried or solved, from the submissions only
    (runs of the sample are not attempts)."""
    mine = [j for j in past if j.problem == slug and j.kind == "submit"]
    accepted = [j for j in mine if j.verdict == "AC"]
    times = [j.largest_ms for j in accepted if j.largest_ms is not None]
    return {
        "status": "solved" if accepted else "tried" if mine else "new",
        "attempts": len(mine),
        "accepted": len(accepted),
        "best_ms": min(times) if times else None,
        "last_verdict": mine[-1].verdict if mine else None,
    }
