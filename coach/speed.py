"""On AC, the user's slowest test next to the reference's time on the same test, judged in the
same kind of sandbox. The reference's figure is measured once per machine, reference and test,
and kept in $JUDGE_HOME/reference_times.json (fastest of three runs: a busy machine only adds)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from hashlib import sha256

from coach.home import judge_home
from grading.judgement import Report
from grading.session import Options, given, judge_file
from problems import ProblemError
from sandbox.errors import MachineBusy, SandboxError

RUNS = 3
# What a run's time counts, in the cache key: a figure measured another way is measured again.
# 2: from the submission's import on (the fork server subtracts its own work in the run's child).
TIMING = "2"


@dataclass
class Speed:
    """The reference's time beside the user's slowest test: a section of the report (grading/
    judgement.py's Section) under the key "speed"."""

    test: str
    yours_ms: float | None
    reference_ms: float
    ratio: float

    key = "speed"

    def to_json(self) -> dict[str, object]:
        return {"test": self.test, "yours_ms": self.yours_ms, "reference_ms": self.reference_ms, "ratio": self.ratio}

    def to_text(self) -> str:
        return (f"Speed: your slowest test, {self.test}, took {self.yours_ms or 0:.0f} ms of CPU time; the reference "
                f"takes {self.reference_ms:.0f} ms there ({self.ratio:.1f}x; yours is this one run, the reference's "
                "the fastest of 3 on this machine)")


def _machine() -> str:
    """This machine's name and CPU model (platform.processor() only where /proc/cpuinfo names
    none: on Linux it starts `uname -p`)."""
    try:
        with open("/proc/cpuinfo") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), None)
    except OSError:
        model = None
    if model is None:
        import platform

        model = platform.processor()
    return f"{os.uname().nodename}|{model}"


def reference_ms(report: Report, test: str) -> float | None:
    problem = report.problem
    assert problem is not None  # speed() asks only for a report with its problem
    path = problem.tests_dir / f"{test}.json"
    key = "|".join([_machine(), TIMING, problem.slug, test,
                    sha256(problem.reference_path.read_bytes()).hexdigest()[:16]])
    cache = judge_home() / "reference_times.json"
    try:
        known = json.loads(cache.read_text())
    except (OSError, ValueError):
        known = {}
    if isinstance(known, dict) and isinstance(known.get(key), (int, float)):
        return float(known[key])
    times: list[float] = []
    for _ in range(RUNS):
        judged = judge_file(problem.reference_path, problem, Options(given([path])))
        if judged.verdict != "AC" or not judged.tests:
            return None
        times.append(judged.tests[0].time_ms or 0.0)  # AC: measured
    known = known if isinstance(known, dict) else {}
    known[key] = min(times)
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps(known, indent=1))
    except OSError:
        pass  # a cache that cannot be written only costs a measurement next time
    return min(times)


def speed(report: Report) -> Speed | None:
    """None when it cannot be had (no reference.py, a test that is not stored, a sandbox failure, a
    machine too busy):
    the figure is a courtesy and never costs the verdict."""
    if report.verdict != "AC" or not report.tests or report.problem is None:
        return None
    slowest = max(report.tests, key=lambda t: t.time_ms or 0)
    if not report.problem.reference_path.is_file() or not (report.problem.tests_dir / f"{slowest.name}.json").is_file():
        return None
    try:
        theirs = reference_ms(report, slowest.name)
    except (OSError, ValueError, ProblemError, SandboxError, MachineBusy):
        return None
    if theirs is None:
        return None
    return Speed(slowest.name, slowest.time_ms, theirs, round((slowest.time_ms or 0) / max(theirs, 0.1), 2))
