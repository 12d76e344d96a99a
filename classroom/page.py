"""The class's side of the problem page (serving/store.py's ProblemStore): a student's code is
their draft in the class's SQLite, versioned as the practice file is; a Run or a hint is judged at
once in a sandbox of its own (tryout.py; with a queue, a worker's: remote_runs.py), never stored
and never an attempt; a Submit is a stored submission judged by the class's queue (local or
Redis) under every rule of app.py's create(), and the page follows it queued -> judging ->
verdict. What a student may read of a submission is app.py's visible() (a contest's hidden test:
its verdict and number only)."""

from __future__ import annotations

import datetime as dt
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from classroom.config import ClassConfig
from classroom.feedback import shown_test
from classroom.store import Store
from classroom.tryout import RUNS_IN_FLIGHT, RunJudge, RunRefused, Runs
from coach.case import MAX_CASE_BYTES
from coach.editorial import Editorial, opened
from coach.starter import starter_text
from grading.source import MAX_SOURCE_BYTES
from problems import Problem
from serving.answers import Refused, parsed, text
from serving.store import ABSENT, Ask, Code, Followed, code_diff, stored_input

log = logging.getLogger("classroom")

WHERE = "your code (kept by the class's server)"
HISTORY = 20  # a student's latest submissions of a problem, on its page
KEEP_RUNS = 200  # finished Runs kept for a page that reconnects
POLL_S = 0.3  # how often a followed submission's row is read again
SUBMISSION = re.compile(r"s([0-9]{1,18})")
API_RUN = '{"code": text, "input": {argument: value, ...} or null, "hint": 0, 1 or 2}'


class RunJob:
    """A Run (or a hint) judged in the page's pool; its one event is its report, or why not."""

    def __init__(self, owner: int, about: dict, work: Callable[[], dict], pool: ThreadPoolExecutor):
        self.id, self.owner, self.about = secrets.token_hex(8), owner, about
        self.events: list[dict] = []
        self.state = "running"
        self.lock = threading.Lock()
        pool.submit(self._do, work)

    def _do(self, work: Callable[[], dict]) -> None:
        try:
            event = {"event": "done", "report": work()}
        except RunRefused as exc:
            event = {"event": "error", "message": str(exc)}
        except Exception as exc:  # the page is told; the server lives on
            log.exception("a run failed")
            event = {"event": "error", "message": f"the run failed: {exc}"}
        with self.lock:
            self.events.append(event)
            self.state = "done"

    def snapshot(self, seen: int) -> tuple[list[dict], bool]:
        with self.lock:
            return self.events[seen:], self.state == "done"

    def summary(self) -> dict:
        return {"job": self.id, "state": self.state, **self.about}


class SubmissionJob:
    """A stored submission followed from its row: a "state" event as it is queued then judged, then
    its result as the page's report. Its id names the submission, so a reloaded page (or a
    restarted server) follows it again."""

    def __init__(self, submission: int, read: Callable[[], dict], report: Callable[[dict], dict]):
        self.id, self.read, self.report = f"s{submission}", read, report
        self.events: list[dict] = []
        self.said: str | None = None
        self.last = time.monotonic()
        self.shown = read()
        self._note()

    def _note(self) -> None:
        status = self.shown["status"]
        if status == "done" and self.said != "done":
            self.events.append({"event": "done", "report": self.report(self.shown)})
        elif status != self.said:
            self.events.append({"event": "state", "state": status})
        self.said = status

    def snapshot(self, seen: int) -> tuple[list[dict], bool]:
        if self.said != "done" and time.monotonic() - self.last >= POLL_S:
            self.last = time.monotonic()
            self.shown = self.read()
            self._note()
        return self.events[seen:], self.said == "done"

    def summary(self) -> dict:
        return {"job": self.id, "state": self.shown["status"], "kind": "submit", "problem": self.shown["problem"],
                "submission": self.shown["id"]}


class ClassPage:
    """`create` and `visible` are app.py's: a submission's rules, and what the caller may read of one."""

    run_bytes = MAX_SOURCE_BYTES * 2 + MAX_CASE_BYTES + 4096  # an API Run sends its code, JSON-escaped

    def __init__(self, store: Store, config: Callable[[], ClassConfig], problem_of: Callable[[str], Problem],
                 create: Callable[[Any, object, object], int], visible: Callable[[Any, str], dict],
                 remote: RunJudge | None = None):
        self.store, self.config, self.problem_of = store, config, problem_of
        self.create_submission, self.visible = create, visible
        self.runs = Runs(remote, RUNS_IN_FLIGHT) if remote is not None else Runs()
        self.pool = ThreadPoolExecutor(self.runs.at_once + 2, thread_name_prefix="class-run")  # a few wait for a slot
        self.jobs: dict[str, RunJob] = {}
        self.lock = threading.Lock()

    def problem(self, slug: str, who: Any) -> Problem:
        return self.problem_of(slug)

    def ping(self, who: Any) -> dict:
        return {"ok": True}

    # -- the code: the student's draft ---------------------------------------------------------
    def load(self, ask: Ask) -> Code:
        """The draft; before the first save, the starter (version ABSENT: the first edit saves it), so
        a first open needs no second request."""
        return self.create(ask)[0]

    def create(self, ask: Ask) -> tuple[Code, bool]:
        found = self.store.draft(ask.who.user.id, ask.problem.slug)
        if found is None:
            return Code(starter_text(ask.problem), ABSENT, WHERE), True
        return Code(found[0], found[1], WHERE), False

    def code(self, ask: Ask) -> str:
        return self.create(ask)[0].text

    def save(self, ask: Ask, text: str, based_on: str) -> Code:
        saved, stored, version = self.store.save_draft(ask.who.user.id, ask.problem.slug, text, based_on)
        if not saved:
            raise Refused(409, "your code of this problem was saved elsewhere (another tab) since this text was "
                               "loaded", {"version": version, "source": stored})
        return Code(text, version, WHERE)

    def sample(self, ask: Ask, test: str | None) -> dict:
        """The sample's input; another stored test's only where the class shows that test in full."""
        settings = self.config()
        if (test is not None and not ask.who.user.admin and not settings.full_feedback
                and not shown_test(ask.problem.slug, test, settings.visible_tests)):
            raise Refused(403, "a contest shows a hidden test's verdict only, not its input")
        return stored_input(ask.problem, test)

    # -- Runs and hints: judged now, nothing stored --------------------------------------------
    def admit(self, who: Any, level: int) -> None:
        """A student's Run: not before a contest starts (after its end, as practice: hints and the
        editorial open then), a hint only where class.toml allows, a few a minute."""
        if who.user.admin:
            return
        settings, now = self.config(), time.time()
        if settings.start is not None and now < settings.start:
            raise Refused(403, "the contest has not started")
        if level and not settings.hints_now(now):
            raise Refused(403, "hints are off here (in a contest, until it ends)")
        try:
            self.runs.admit(who.user.id, settings.runs_per_minute)
        except RunRefused as exc:
            raise Refused(exc.status, str(exc)) from None

    def start_run(self, ask: Ask, code: str, given: object, level: int) -> dict:
        self.admit(ask.who, level)
        about = {"kind": "hint" if level else "run", "problem": ask.problem.slug,
                 **({"level": level} if level else {}), **({"input": "your input"} if given is not None else {})}
        job = RunJob(ask.who.user.id, about, lambda: self.runs.run(ask.problem, code, given, level, ask.lang),
                     self.pool)
        with self.lock:
            self.jobs[job.id] = job
            ended = [k for k, j in self.jobs.items() if j.state == "done"]
            for old in ended[:max(0, len(ended) - KEEP_RUNS)]:
                del self.jobs[old]
        return job.summary()

    def run(self, ask: Ask, body: bytes) -> dict:
        """The page's Run (empty, or {"input": {...}}: the draft judged), or a script's, which sends its
        code ({"code", "input", "hint"}) and is answered the run's report at once."""
        given = parsed(body, API_RUN) if body.strip() else None
        if isinstance(given, dict) and "code" in given:
            return self.api_run(ask, given)
        if given is not None and not (isinstance(given, dict) and set(given) == {"input"}):
            raise Refused(400, 'send your input as {"input": {argument: value, ...}}, or nothing for the sample')
        return self.start_run(ask, self.code(ask), given["input"] if given else None, 0)

    def api_run(self, ask: Ask, given: dict) -> dict:
        code = given["code"]
        if not isinstance(code, str):
            raise Refused(400, f"send JSON: {API_RUN}")
        text(code, "the code")
        if len(code.encode("utf-8", errors="surrogatepass")) > MAX_SOURCE_BYTES:
            raise Refused(413, f"the source is over the judge's limit of {MAX_SOURCE_BYTES} bytes")
        level = given.get("hint", 0)
        if level not in (0, 1, 2):
            raise Refused(400, f"hint = {level!r}: 0 (none), 1 (the step) or 2 (the bug)")
        self.admit(ask.who, level)
        try:
            return self.runs.run(ask.problem, code, given.get("input"), level)
        except RunRefused as exc:
            raise Refused(exc.status, str(exc)) from None

    def hint(self, ask: Ask, level: int, body: bytes) -> dict:
        """A Run on the sample (or the own input sent) that ends with a hint of `level`."""
        given = parsed(body, '{"input": {...}}') if body.strip() else None
        if given is not None and not (isinstance(given, dict) and set(given) == {"input"}):
            raise Refused(400, 'send your input as {"input": {argument: value, ...}}, or nothing for the sample')
        return self.start_run(ask, self.code(ask), given["input"] if given else None, level)

    # -- Submit: a stored submission, followed ----------------------------------------------------
    def submit(self, ask: Ask) -> dict:
        submission = self.create_submission(ask.who, ask.problem.slug, self.code(ask))
        return self.follow(ask.who, submission).summary()

    def follow(self, who: Any, submission: int) -> SubmissionJob:
        return SubmissionJob(submission, lambda: self.visible(who, str(submission)),
                             lambda shown: self.report(who, shown))

    def report(self, who: Any, shown: dict) -> dict:
        """A stored result as the page reads a judging's report (a test a contest hides is marked "hidden")."""
        tests = shown["tests"]
        first = next((t for t in tests if t["verdict"] != "AC"), None)
        total = len(self.problem_of(shown["problem"]).test_files()) if shown["tests"] else 0
        return {"verdict": shown["verdict"], "message": shown["message"] or "", "submission": shown["id"],
                **({"hidden_failure": shown["hidden_failure"]} if "hidden_failure" in shown else {}),
                "passed": sum(t["verdict"] == "AC" for t in tests), "total": max(total, len(tests)),
                "first_failure": first["name"] if first else None, "tests": tests}

    def active(self, ask: Ask) -> dict:
        with self.lock:
            running = [j for j in self.jobs.values() if j.owner == ask.who.user.id and j.state != "done"
                       and j.about["problem"] == ask.problem.slug]
        if running:
            return running[-1].summary()
        for status in ("judging", "queued"):
            rows = self.store.submissions(ask.who.user.id, ask.problem.slug, status=status, limit=1)
            if rows:
                return self.follow(ask.who, rows[0]["id"]).summary()
        return {"job": None}

    def job(self, job: str, who: Any) -> Followed:
        number = SUBMISSION.fullmatch(job)
        if number:
            return self.follow(who, int(number.group(1)))  # another's: 404, as one that does not exist
        with self.lock:
            found = self.jobs.get(job)
        if found is None or found.owner != who.user.id:
            raise Refused(404, "no such run (finished long ago, never started, or lost with a restart)")
        return found

    def cancel(self, job: Followed, who: Any) -> dict:
        raise Refused(409, "a class's Run or submission is not cancelled: it ends on its own")

    def stopping(self) -> bool:
        return False

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)

    # -- history and editorial -----------------------------------------------------------------
    def history(self, ask: Ask) -> list[dict]:
        rows = self.store.submissions(ask.who.user.id, ask.problem.slug, limit=HISTORY)
        return [self.row(ask.who, self.visible(ask.who, str(r["id"]))) for r in reversed(rows)]

    def row(self, who: Any, shown: dict) -> dict:
        """A submission as a line of the page's history."""
        judged = self.report(who, shown) if shown["status"] == "done" else None
        return {"id": shown["id"], "kind": "submit", "problem": shown["problem"], "full": True,
                "time": dt.datetime.fromtimestamp(shown["created"], dt.timezone.utc).isoformat(),
                "verdict": shown["verdict"] or shown["status"], "passed": judged and judged["passed"],
                "total": judged and judged["total"], "slowest_ms": shown["cpu_ms"]}

    def judging(self, ask: Ask, judging_id: str) -> dict:
        """One submission of the history: its code, and the diff against the draft now."""
        shown = self.visible(ask.who, judging_id)
        if shown["problem"] != ask.problem.slug:
            raise Refused(404, f"no submission {judging_id} of {ask.problem.slug}")
        compared = code_diff(shown["code"], self.code(ask), f"submission {judging_id}", "your code now")
        return {"judging": self.row(ask.who, shown), **compared}

    def editorial(self, ask: Ask, force: bool) -> dict:
        """The accepted solutions where class.toml opens them (a contest's default: once it has ended)."""
        if not ask.who.user.admin and not self.config().editorial_now(time.time()):
            closed = {"en": "the editorial is closed here (in a contest, until it ends)",
                      "zh": "此处题解未开放（比赛中，直到比赛结束）"}
            return Editorial(False, closed[ask.lang], 0).as_dict()
        return opened(ask.problem).as_dict()

