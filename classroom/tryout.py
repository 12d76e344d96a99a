"""A student's Run in class: their code on the sample or on an input they wrote, judged in a fresh
sandbox (coach/run.py, as the practice page's Run), never stored as a submission and never
counted as an attempt; a few at a time, and a few a minute per student. Without a queue the
server's own sandbox judges it; with one a worker does (remote_runs.py) and this server waits."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

from coach.case import MAX_CASE_BYTES, parse_case
from coach.hints import hint
from coach.run import run_file, run_json
from problems import Problem, ProblemError
from sandbox.sandbox import Sandbox, run_label
from sandbox.view import checkout_root
from serving.answers import finite

RUNS_AT_ONCE = 2  # sandboxes the server starts for Runs at one time (the judges keep the rest)
RUNS_IN_FLIGHT = 8  # Runs one server waits on at once when workers judge them (no sandbox here)
RUN_WAIT_S = 30  # with a queue: how long a Run waits for a worker to take it (`serve --run-wait`)
SOURCE_NAME = "submission.py"  # what tracebacks call the file, as a submission's
CASE_NAME = "your-input.json"
LABEL = "class-run-{pid}"  # a Run's sandbox in `ps` (sandbox_processes): which process judged it

# A Run judged elsewhere: (problem slug, code, the own input or None, hint level) -> the report.
RunJudge = Callable[[str, str, object, int, str], dict]


class RunRefused(Exception):
    """Why this Run is not done now: (status, one line)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def case_bytes(given: object) -> bytes:
    """The own input as the case file a Run reads: refused (413, 400) before any sandbox starts."""
    raw = json.dumps({"input": given}).encode()
    if len(raw) > MAX_CASE_BYTES:
        raise RunRefused(413, f"the input is over the limit of {MAX_CASE_BYTES} bytes")
    try:
        parse_case(raw, "your input")
    except ProblemError as exc:
        raise RunRefused(400, str(exc)) from None
    return raw


def judged_run(problem: Problem, code: str, given: object | None, level: int = 0, lang: str = "en") -> dict:
    """One run as the page reads it (coach/run.py's run_json: the test, the console, both outputs),
    on the sample when `given` is None, else on {"input": given} checked as the practice page
    checks it; with a `level`, the hint of that level (coach/hints.py: a WA on the sample or a
    stored test). Judged here, in a fresh sandbox: the server's, or a worker's."""
    raw = case_bytes(given) if given is not None else None
    workdir = Path(tempfile.mkdtemp(prefix="class-run-"))  # 0700: the code waits here, unseen
    try:
        source = workdir / SOURCE_NAME
        source.write_text(code, encoding="utf-8", errors="surrogatepass")
        case = None
        if raw is not None:
            case = workdir / CASE_NAME
            case.write_bytes(raw)
        sandbox = Sandbox(label=run_label(LABEL.format(pid=os.getpid())), secrets=[checkout_root(), workdir])
        try:
            report, expected = run_file(source, problem, case, sandbox)
            found = hint(report, level, lang=lang) if level else None
        except ProblemError as exc:
            raise RunRefused(400, str(exc).replace(str(workdir / CASE_NAME), "your input")) from None
        finally:
            sandbox.close()  # also when the input was refused after the sandbox began to start
        data = finite(run_json(report, expected, "your input" if case else "sample"))
        if found is not None:
            data["hint"] = finite(found.to_json())
        return data
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


class Runs:
    """The server's Runs: admitted a few a minute per student, judged here (at most RUNS_AT_ONCE
    sandboxes) or, given `remote`, by the queue's workers (its own bound on Runs in flight)."""

    def __init__(self, remote: RunJudge | None = None, at_once: int = RUNS_AT_ONCE) -> None:
        self.remote = remote
        self.at_once = at_once
        self.slots = threading.BoundedSemaphore(at_once)
        self.lock = threading.Lock()
        self.recent: dict[int, deque[float]] = {}

    def admit(self, user_id: int, per_minute: int) -> None:
        """Count this Run against the student's minute, or refuse it (429)."""
        now = time.monotonic()
        with self.lock:
            times = self.recent.setdefault(user_id, deque())
            while times and times[0] < now - 60:
                times.popleft()
            if len(times) >= per_minute:
                raise RunRefused(429, f"at most {per_minute} runs a minute: wait a moment")
            times.append(now)

    def run(self, problem: Problem, code: str, given: object | None, level: int = 0, lang: str = "en") -> dict:
        """The Run's report (judged_run's), or RunRefused saying why not."""
        if given is not None:
            case_bytes(given)  # a bad input is told at once, not after a trip through the queue
        if not self.slots.acquire(timeout=60):
            raise RunRefused(503, "the server is busy with other runs: try again in a moment")
        try:
            if self.remote is not None:
                return self.remote(problem.slug, code, given, level, lang)
            return judged_run(problem, code, given, level, lang)
        finally:
            self.slots.release()
