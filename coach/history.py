"""Every judging of a user's file, in SQLite: what `list` and `history` show, and the code each
judging judged (kept once per distinct source, for the web page's code view and diff).

A problem is solved by an AC on its full test set (a judging of some tests only, `--tests 001`,
is not), and its attempts are the submissions: runs on the sample and hint judgings are kept in
the history but count as neither.

WAL mode and a busy timeout let two judgings write at once. Nothing here may cost a verdict: a
database that cannot be opened or written is reported in one line by the caller and skipped.
"""

from __future__ import annotations

import sqlite3
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

from coach.home import judge_home
from grading.judgement import Report

SCHEMA = """
CREATE TABLE IF NOT EXISTS judgings (
    id INTEGER PRIMARY KEY,
    time TEXT NOT NULL,            -- UTC, ISO 8601
    kind TEXT NOT NULL,            -- submit (a judging), hint (a judging for a hint), run (the sample or an own input)
    problem TEXT NOT NULL,         -- slug
    path TEXT NOT NULL,
    sha256 TEXT NOT NULL,          -- of the source
    verdict TEXT NOT NULL,
    passed INTEGER NOT NULL,
    total INTEGER NOT NULL,
    first_failing TEXT,            -- test name, NULL when none failed
    slowest_ms REAL,               -- CPU time of the slowest test run
    peak_mb REAL,                  -- largest peak memory of a test run
    largest_ms REAL,               -- CPU time on the problem's largest test, when it ran and passed
    full INTEGER                   -- 1: the judging covered the problem's every test (NULL in older rows)
);
CREATE INDEX IF NOT EXISTS judgings_problem ON judgings (problem, time);
CREATE TABLE IF NOT EXISTS sources (
    sha256 TEXT PRIMARY KEY,
    source BLOB NOT NULL
);
"""
ADDED = {"full": "INTEGER"}  # columns a history written by an older version lacks


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
    full: bool | None = None
    id: int | None = None  # the row's, once recorded

    def as_dict(self) -> dict:
        return asdict(self)

    def is_full(self, tests: int | None = None) -> bool:
        """Whether it covered the full test set; an older row, which does not say, when its total
        is the problem's number of tests (`tests`, when known)."""
        if self.full is not None:
            return bool(self.full)
        return tests is None or self.total == tests


def database(home: Path | None = None) -> Path:
    return (home or judge_home()) / "history.sqlite"


def _connect(path: Path) -> sqlite3.Connection:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(path, timeout=10)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.executescript(SCHEMA)
        present = {row[1] for row in connection.execute("PRAGMA table_info(judgings)")}
        for name, kind in ADDED.items():
            if name not in present:
                connection.execute(f"ALTER TABLE judgings ADD COLUMN {name} {kind}")
        return connection
    except (OSError, sqlite3.Error) as exc:
        raise HistoryError(f"{path}: {exc}") from None


def judging_of(report: Report, kind: str = "submit") -> Judging:
    """What the history keeps of one report."""
    tests = report.tests
    failure = report.first_failure
    stored = report.problem.test_files() if report.problem else []
    biggest = largest_test(stored)
    largest = next((t.time_ms for t in tests if t.name == biggest and t.verdict == "AC"), None)
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
        slowest_ms=report.slowest_ms,
        peak_mb=report.peak_mb,
        largest_ms=largest,
        full=bool(stored) and report.total == len(stored),
    )


def largest_test(stored: list[Path]) -> str | None:
    """The name of the largest stored test: the one with the most bytes (its arrays are stored as
    JSON numbers, so bytes follow the input's size; a stat per test, no parsing)."""
    sizes = []
    for path in stored:
        try:
            sizes.append((path.stat().st_size, path.stem))
        except OSError:
            continue
    return max(sizes)[1] if sizes else None


def record(judging: Judging, path: Path | None = None, source: bytes | None = None) -> None:
    """Add a judging, and the code it judged (`source`, kept once per sha256)."""
    path = path or database()
    connection = _connect(path)
    try:
        with connection:
            fields = {k: v for k, v in judging.as_dict().items() if k != "id"}
            connection.execute(f"INSERT INTO judgings ({', '.join(fields)}) VALUES ({', '.join('?' * len(fields))})",
                               tuple(fields.values()))
            if source is not None and judging.sha256:
                connection.execute("INSERT OR IGNORE INTO sources (sha256, source) VALUES (?, ?)",
                                   (judging.sha256, source))
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
    found = []
    for row in rows:
        fields = dict(zip(names, row))
        fields["full"] = None if fields["full"] is None else bool(fields["full"])  # sqlite keeps 0 or 1
        found.append(Judging(**fields))
    return found


def source_of(sha256: str, path: Path | None = None) -> bytes | None:
    """The code a judging judged, by its sha256; None when it was not kept (an older history)."""
    path = path or database()
    if not path.exists():
        return None
    connection = _connect(path)
    try:
        row = connection.execute("SELECT source FROM sources WHERE sha256 = ?", (sha256,)).fetchone()
    except sqlite3.Error as exc:
        raise HistoryError(f"{path}: {exc}") from None
    finally:
        connection.close()
    return bytes(row[0]) if row else None


def attempts(slug: str, past: list[Judging]) -> list[Judging]:
    """The submissions of a problem: runs and hint judgings are not attempts."""
    return [j for j in past if j.problem == slug and j.kind == "submit"]


def accepted(slug: str, past: list[Judging], tests: int | None = None) -> list[Judging]:
    """The submissions that solved it: AC on the full test set."""
    return [j for j in attempts(slug, past) if j.verdict == "AC" and j.is_full(tests)]


def standing(slug: str, past: list[Judging], tests: int | None = None) -> dict:
    """One problem as the problem list shows it: new, tried or solved (an AC on the full test set;
    `tests`: how many it has, for older rows that do not say), from the submissions only. "best_ms"
    is the fastest accepted CPU time on its largest test."""
    mine = attempts(slug, past)
    accepted_ = accepted(slug, past, tests)
    times = [j.largest_ms for j in accepted_ if j.largest_ms is not None]
    return {
        "status": "solved" if accepted_ else "tried" if mine else "new",
        "attempts": len(mine),
        "accepted": len(accepted_),
        "best_ms": min(times) if times else None,
        "last_verdict": mine[-1].verdict if mine else None,
    }
