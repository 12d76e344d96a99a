"""A warm worker's judging: one sandbox kept up between submissions (each served by a session
process of its own: sandbox/inside/protocol.py), and each problem's tests kept read, so a judging
costs the tests' runs, not an interpreter, numpy and the tests' parsing. A lost sandbox is
replaced; tests whose files changed (before a rejudge) are read again."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from classroom.console import printed
from grading.judgement import Report, Summary, Verdict, failed_summary, summary_of
from grading.session import Options, given, judge_file
from grading.source import MAX_SOURCE_BYTES
from grading.tests import TestData, test_data
from problems import Problem, ProblemError
from sandbox.errors import MachineBusy, SandboxError
from sandbox.sandbox import Sandbox, run_label
from sandbox.view import checkout_root

BUSY_RETRIES = 2  # a run the machine starved (no verdict, sandbox/errors.py) is judged again
MESSAGE_BYTES = 2000  # of a test's message or a traceback, kept with the result
SOURCE_NAME = "submission.py"  # what tracebacks call the file


class WarmJudge:
    """Judges one submission at a time; use one per worker thread (its sandbox dies with the
    thread that started it). `secrets`: folders no run may see besides the checkout (the class's)."""

    def __init__(self, problems: dict[str, Problem], name: str, secrets: list[Path] | None = None):
        self.problems, self.name = problems, name
        self.workdir = Path(tempfile.mkdtemp(prefix="judge-worker-"))  # 0700: the code waits here, unseen
        self.secrets: list[Path | str] = [checkout_root(), *(secrets or []), self.workdir]
        self.sandbox: Sandbox | None = None
        self._tests: dict[str, tuple[tuple, list[TestData]]] = {}

    def warm_up(self) -> None:
        """Start the sandbox (in the calling thread, which it lives with) and read every problem's tests."""
        self._sandbox()
        for problem in self.problems.values():
            self.tests(problem)

    def _sandbox(self) -> Sandbox:
        if self.sandbox is None or not self.sandbox.alive:
            self.sandbox = Sandbox(label=run_label(f"class-worker-{self.name}"), secrets=self.secrets, warm=True)
            self.sandbox.start()
        return self.sandbox

    def tests(self, problem: Problem) -> list[TestData]:
        """The problem's tests, read once and again only when a file of them changed."""
        files = problem.test_files()
        key = tuple((f.name, *_stamp(f)) for f in [problem.toml_path, *files])
        kept = self._tests.get(problem.slug)
        if kept is None or kept[0] != key:
            kept = (key, [test_data(problem, f) for f in files])
            self._tests[problem.slug] = kept
        return kept[1]

    def judge(self, slug: str, code: str) -> Summary:
        """The result to store: verdict, message, tests, CPU and memory. Never raises for the
        submission's doing; a judging that cannot be done here is JE with the reason."""
        problem = self.problems.get(slug)
        if problem is None:
            return internal(f"no problem {slug!r} on this worker")
        source = code.encode("utf-8", errors="surrogatepass")
        if len(source) > MAX_SOURCE_BYTES:
            return failed_summary(Verdict.CE, f"the file is {len(source)} bytes, over the {MAX_SOURCE_BYTES >> 20} "
                                  "MiB limit for a source file")
        path = self.workdir / SOURCE_NAME
        busy, lost = 0, False
        try:
            tests = self.tests(problem)
            while True:
                path.write_bytes(source)
                sandbox = self._sandbox()
                try:
                    report = judge_file(path, problem, Options(given(tests), sandbox=sandbox, keep_sandbox=True))
                except MachineBusy:
                    busy += 1
                    if busy > BUSY_RETRIES:
                        return internal(MachineBusy.MESSAGE)
                    continue
                if report.verdict == Verdict.JE and not sandbox.alive and not lost:
                    lost = True  # the kept sandbox died since its last judging: once more on a fresh one
                    continue
                return result_of(report)
        except (ProblemError, SandboxError, OSError) as exc:
            return internal(f"the judge failed: {exc}")
        finally:
            path.unlink(missing_ok=True)

    def close(self) -> None:
        if self.sandbox is not None:
            self.sandbox.close()
            self.sandbox = None
        shutil.rmtree(self.workdir, ignore_errors=True)


def _stamp(path: Path) -> tuple:
    stat = path.stat()
    return stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino


def internal(message: str) -> Summary:
    """JE: the judging failed, not the submission (DMOJ calls it IE, Internal Error)."""
    return failed_summary(Verdict.JE, message)


def result_of(report: Report) -> Summary:
    summary = summary_of(report, MESSAGE_BYTES)
    summary["tests"] = printed(report, summary["tests"])
    return summary


def cores() -> int:
    return max(1, len(os.sched_getaffinity(0)))
