"""What the problem page's API needs from a server, the part that differs per mode: where the
user's code lives, how a Run, Submit or Hint is started and followed, the history and the editorial.

web/practice.py keeps code in files under practice/ (one user, no accounts) and judges with
`python -m judge` processes (web/jobs.py); classroom/page.py keeps a student's draft in the class's
SQLite, judges a Run in a sandbox of its own (classroom/tryout.py) and a Submit as a stored
submission on the class's queue. serving/problem_api.py defines the routes once over this, and
docs/web.md says the JSON each answers.

Every method takes an `Ask`: the problem (already checked to exist for this asker), who asks (the
class's caller; None on the practice server) and the practice file named in the URL. A method that
will not do what is asked raises serving.answers.Refused (status, one line, more JSON fields).
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Any, Protocol

from coach.case import fields
from problems import Problem
from serving.answers import Refused

ABSENT = "absent"  # the version of code never saved


@dataclass
class Ask:
    problem: Problem
    who: Any  # the class's Caller; None on the practice server
    file: str | None = None  # ?file= on the practice server: another file of practice/
    lang: str = "en"  # ?lang= : the language of what the server writes for the page (hints, editorial)


@dataclass
class Code:
    """The user's code of a problem: its text, its version (If-Match of the next save) and what the
    page calls where it lives."""

    text: str
    version: str
    where: str

    def as_dict(self, **more) -> dict:
        return {"file": self.where, "source": self.text, "version": self.version, **more}


class Followed(Protocol):
    """A judging the page follows: the events so far ({"event": "test" | "state" | "done" | "error" |
    "cancelled", ...}, the last one ends it) and what it is ({"job", "state", "kind", ...})."""

    def snapshot(self, seen: int) -> tuple[list[dict], bool]: ...

    def summary(self) -> dict: ...


class ProblemStore(Protocol):
    run_bytes: int  # the most a Run's body may hold

    def problem(self, slug: str, who: Any) -> Problem:
        """The problem this asker may open (404 otherwise)."""
        ...

    def ping(self, who: Any) -> dict:
        """What /api/ping answers: {"ok": true, ...} while the server serves this asker."""
        ...

    def load(self, ask: Ask) -> Code | None:
        """The code as it is now; None when there is none yet (the page then asks `create`)."""
        ...

    def create(self, ask: Ask) -> tuple[Code, bool]:
        """The code, with the problem's starter put there first when there was none (and whether it was)."""
        ...

    def save(self, ask: Ask, text: str, based_on: str) -> Code:
        """Saved when the version now is `based_on`; else Refused(409, ..., {"version", "source"}) with
        what is there now, never an overwrite."""
        ...

    def sample(self, ask: Ask, test: str | None) -> dict:
        """{"input": ...}: the sample's, or a stored test's this asker may read (a failing test as own input)."""
        ...

    def run(self, ask: Ask, body: bytes) -> dict:
        """Start a Run on the sample (empty body) or on {"input": {...}}: the judging's summary."""
        ...

    def submit(self, ask: Ask) -> dict:
        """Start a judging of the code on every test: its summary."""
        ...

    def hint(self, ask: Ask, level: int, body: bytes) -> dict:
        """Start a judging that ends with a hint of `level` (1: the step, 2: the bug): its summary."""
        ...

    def active(self, ask: Ask) -> dict:
        """The judging of this code that has not ended (a reloaded page follows it), or {"job": null}."""
        ...

    def job(self, job: str, who: Any) -> Followed:
        """A judging this asker may follow (404 otherwise)."""
        ...

    def cancel(self, job: Followed, who: Any) -> dict:
        ...

    def stopping(self) -> bool:
        """Whether the server is shutting down (an event stream then ends at once)."""
        ...

    def history(self, ask: Ask) -> list[dict]:
        """The asker's judgings of the problem, oldest first: {"id", "time", "kind", "verdict", "passed",
        "total", "slowest_ms", "full"}."""
        ...

    def judging(self, ask: Ask, judging_id: str) -> dict:
        """One of them: {"judging", "source", "diff", "same"} (code_diff)."""
        ...

    def editorial(self, ask: Ask, force: bool) -> dict:
        """{"open", "message", "solutions": [{"name", "description", "source"}]}."""
        ...


def code_diff(judged: str | None, now: str | None, judged_label: str, now_label: str) -> dict:
    """A judged code against the code now, as the history's detail shows them."""
    diff = None
    if judged is not None and now is not None:
        diff = list(difflib.unified_diff(judged.splitlines(), now.splitlines(), judged_label, now_label,
                                         lineterm="", n=3))
    return {"source": judged, "diff": diff, "same": judged is not None and judged == now}


def stored_input(problem: Problem, test: str | None) -> dict:
    """{"input": ...} of the problem's first stored test (the sample), or of the test named, and
    "args": the arguments the own-input editor shows a field for."""
    files = problem.test_files()
    chosen = files[0] if test is None else next((f for f in files if f.stem == test), None)
    if chosen is None:
        raise Refused(404, f"{problem.slug} has no stored test {test!r}")
    return {"input": json.loads(chosen.read_text(encoding="utf-8"))["input"], "args": fields(problem)}
