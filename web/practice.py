"""The practice server's side of the problem page (serving/store.py's ProblemStore): the code is a
file under practice/ (shared with the terminal, versioned by its sha256), every judging a
`python -m judge` process on web/jobs.py's queue, recorded in the practice history, and the
editorial opens once the history holds an AC (or when forced).

Problem names are checked against the problems that exist and file names against one pattern, so
no path leaves practice/. A save names the version of the file it was based on; a file changed
since (another tab, a terminal) is a 409 with what is on disk, never a silent overwrite.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from coach import history
from coach.case import MAX_CASE_BYTES, parse_case
from coach.editorial import editorial
from coach.starter import write_starter
from problems import Problem, ProblemError, all_problems
from serving.answers import Refused
from serving.store import ABSENT, Ask, Code, Followed, code_diff, stored_input
from web.jobs import Busy, Job, JobQueue, judge_command

ROOT = Path(__file__).resolve().parent.parent
FILE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,80}\.py")
EDITORIAL_WORKERS = 2


def version_of(data: bytes | None) -> str:
    return ABSENT if data is None else hashlib.sha256(data).hexdigest()


class PracticeStore:
    run_bytes = MAX_CASE_BYTES

    def __init__(self, practice: Path, jobs: JobQueue):
        self.practice, self.jobs = practice, jobs
        self.saving = threading.Lock()  # a save's check and write are one step
        self.pool = ThreadPoolExecutor(EDITORIAL_WORKERS, thread_name_prefix="editorial")

    def problems(self) -> dict[str, Problem]:
        return {p.slug: p for p in all_problems()}

    def problem(self, slug: str, who: Any = None) -> Problem:
        found = self.problems().get(slug)
        if found is None:
            raise Refused(404, f"no problem {slug!r}")
        return found

    def path(self, ask: Ask) -> Path:
        name = ask.file or f"{ask.problem.slug}.py"
        if not FILE_NAME.fullmatch(name) or ".." in name:
            raise Refused(400, f"{name!r}: a file name is letters, digits, _ . - and ends in .py (no folders)")
        path = (self.practice / name).resolve()
        if path.parent != self.practice:
            raise Refused(400, f"{name!r}: not a file in practice/")
        return path

    def existing(self, ask: Ask) -> Path:
        path = self.path(ask)
        if not path.is_file():
            raise Refused(404, f"practice/{path.name} does not exist yet: open the problem page to create it")
        return path

    def ping(self, who: Any = None) -> dict:
        return {"ok": True, **self.jobs.counts()}

    # -- the code ------------------------------------------------------------------------------
    def load(self, ask: Ask) -> Code | None:
        path = self.path(ask)
        data = _read(path)
        return None if data is None else _code(path, data)

    def create(self, ask: Ask) -> tuple[Code, bool]:
        """The starter file, when the file does not exist (never over one that does)."""
        path = self.path(ask)
        created = False
        with self.saving:
            if not path.exists():
                try:
                    write_starter(ask.problem, path)
                    created = True
                except FileExistsError:
                    pass
        data = _read(path)
        if data is None:
            raise Refused(500, f"practice/{path.name} could not be created")
        return _code(path, data), created

    def save(self, ask: Ask, text: str, based_on: str) -> Code:
        path = self.path(ask)
        body = text.encode("utf-8")
        with self.saving:
            current = _read(path)
            if version_of(current) != based_on:
                raise Refused(409, f"practice/{path.name} changed on disk since this text was loaded",
                              {"version": version_of(current), "source": None if current is None
                               else current.decode("utf-8", errors="replace")})
            _write(path, body)
        return _code(path, body)

    def sample(self, ask: Ask, test: str | None) -> dict:
        """The sample's input, or any stored test's (a failing test used as one's own input)."""
        return stored_input(ask.problem, test)

    # -- judgings ------------------------------------------------------------------------------
    def start(self, ask: Ask, kind: str, command: tuple[str, ...], flags: tuple[str, ...], level: int | None = None,
              body: bytes = b"") -> dict:
        """`python -m judge [command] FILE --problem SLUG --json [flags]` on the queue; with a body, on that input."""
        path = self.existing(ask)
        job = Job(judge_command(*command, str(path), "--problem", ask.problem.slug, "--json", *flags), ROOT,
                  file=str(path), about={"kind": kind, "problem": ask.problem.slug, "file": path.name,
                                         **({"level": level} if level else {})})
        if body.strip():
            try:
                given = parse_case(body, "the input")["input"]
            except ProblemError as exc:
                raise Refused(400, str(exc)) from None
            with tempfile.NamedTemporaryFile("w", suffix=".json", prefix="your-input-", delete=False) as f:
                json.dump({"input": given}, f)
            job.argv += ["--input", f.name]
            job.cleanup.append(Path(f.name))
            job.aliases[f.name] = "your input"
            job.about["input"] = "your input"
        try:
            return self.jobs.submit(job).summary()
        except Busy as exc:
            raise Refused(exc.status, str(exc)) from None

    def run(self, ask: Ask, body: bytes) -> dict:
        return self.start(ask, "run", ("run",), (), body=body)

    def submit(self, ask: Ask) -> dict:
        return self.start(ask, "submit", (), ("--progress",))

    def hint(self, ask: Ask, level: int, body: bytes) -> dict:
        return self.start(ask, "hint", (), ("--progress", "--hint", str(level), "--lang", ask.lang), level=level)

    def active(self, ask: Ask) -> dict:
        job = self.jobs.active(str(self.path(ask)))
        return job.summary() if job else {"job": None}

    def job(self, job: str, who: Any = None) -> Followed:
        found = self.jobs.jobs.get(job)
        if found is None:
            raise Refused(404, "no such judging (finished long ago, never started, or lost with a restart)")
        return found

    def cancel(self, job: Followed, who: Any = None) -> dict:
        assert isinstance(job, Job)  # this store's
        self.jobs.cancel(job)
        return job.summary()

    def stopping(self) -> bool:
        return self.jobs.closing.is_set()

    # -- history and editorial -----------------------------------------------------------------
    def history(self, ask: Ask) -> list[dict]:
        return [j.as_dict() for j in history.judgings(ask.problem.slug)]

    def judging(self, ask: Ask, judging_id: str) -> dict:
        """One judging of the history: the code it judged, and its diff against the file now."""
        path = self.path(ask)
        found = next((j for j in history.judgings(ask.problem.slug) if str(j.id) == judging_id), None)
        if found is None:
            raise Refused(404, f"no judging {judging_id} of {ask.problem.slug}")
        code, now = history.source_of(found.sha256), _read(path)
        return {"judging": found.as_dict(), **code_diff(_text(code), _text(now), f"judged {found.time}",
                                                        f"practice/{path.name} now")}

    def editorial(self, ask: Ask, force: bool) -> dict:
        return self.pool.submit(editorial, ask.problem, force, ask.lang).result().as_dict()

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def _text(data: bytes | None) -> str | None:
    return None if data is None else data.decode("utf-8", errors="replace")


def _code(path: Path, data: bytes) -> Code:
    return Code(data.decode("utf-8", errors="replace"), version_of(data), path.name)


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def _write(path: Path, data: bytes) -> None:
    """Replace the file in one step (a judging or a terminal never reads half of it), keeping its mode."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = 0o644
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".saving", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
