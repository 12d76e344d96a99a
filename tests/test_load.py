"""A verdict that depends on the code alone: judged while busy loops hold both cores (two per
core), correct code stays AC, a busy loop is TLE by its CPU time, a sleeper by the wall clock, an
interactive run is not blamed for the judge's own turns, and a run the machine starves past the
wall-clock cap gets no verdict but a request to rerun (exit 2, nothing recorded)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, is_python, judge, judge_command, judge_env, run_judge

from sandbox.sandbox import sandbox_processes

pytestmark = pytest.mark.slow  # busy loops on every core, then judgings that must hold under them

GQA = ROOT / "problems" / "gqa"


@contextlib.contextmanager
def _busy(per_core: int):
    """Busy loops in the test's own session: where the kernel groups a session's processes for
    scheduling (autogroup), they share the judge's group, and the sandbox's session competes
    with that whole group."""
    count = per_core * (os.cpu_count() or 1)
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


@pytest.fixture
def busy_cores():
    """Two busy loops per core for the test's duration."""
    with _busy(2):
        yield


def submission(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "submission.py"
    path.write_text("import os, time\nclass Solution:\n    def grouped_query_attention(self, *args):\n" + body)
    return path


def test_correct_code_stays_accepted(busy_cores):
    code, report = judge(GQA / "reference.py", "--problem", "gqa")
    assert (code, report["verdict"], report["passed"]) == (0, "AC", report["total"]), report["message"]


def test_a_busy_loop_is_ended_by_its_cpu_time(busy_cores, tmp_path):
    code, report = judge(submission(tmp_path, "        while True:\n            pass\n"), "--problem", "gqa",
                         "--tests", "001")
    test = report["tests"][0]
    assert (code, test["verdict"]) == (1, "TLE")
    assert test["time_ms"] >= 1000 and test["message"].startswith("used "), test


def test_a_sleeper_is_ended_by_the_wall_clock(busy_cores, tmp_path):
    code, report = judge(submission(tmp_path, "        time.sleep(60)\n"), "--problem", "gqa", "--tests", "001")
    test = report["tests"][0]
    assert (code, test["verdict"]) == (1, "TLE")
    assert test["message"].startswith("sleeping or blocked: ended after "), test


def test_an_interactive_run_is_not_charged_for_the_judges_turns():
    """1280 steps, each waiting for the judge to send the next row: with eight busy loops per
    core beside the judge, its turns add up to more than the 3 s wall limit (the run then got
    TLE, "sleeping or blocked", while they were counted as the run's)."""
    for _ in range(3):  # on a machine busy before the test's own loops, the run may get no verdict
        with _busy(8):
            code, report = judge(ROOT / "solutions" / "gqa_decode" / "accepted" / "doubling_arrays.py",
                                 "--tests", "020")
        if not (code == 2 and "too busy to judge" in report.get("error", "")):
            break
    else:
        pytest.skip("the machine was too busy, besides this test's own loops, to judge the run at all (no verdict, "
                    "which is no wrong one)")
    assert (code, report["verdict"]) == (0, "AC"), report.get("tests", report)


class _Throttle:
    """A cgroup whose CPU quota the test sets (a container's CPU limit): a throttled task counts
    as waiting for a CPU, as on a machine too busy to give it one. Root and the cpu controller."""

    V1 = Path("/sys/fs/cgroup/cpu")
    V2 = Path("/sys/fs/cgroup")

    def __init__(self, name: str):
        if os.geteuid() != 0:
            pytest.skip("throttling a run needs root (a cgroup's CPU quota)")
        if (self.V1 / "cpu.cfs_quota_us").exists():
            self.path, self.v2 = self.V1 / name, False
        elif "cpu" in (self.V2 / "cgroup.controllers").read_text(errors="ignore").split() if (
                self.V2 / "cgroup.controllers").exists() else False:
            self.path, self.v2 = self.V2 / name, True
        else:
            pytest.skip("no cgroup cpu controller here to throttle a run with")
        self.path.mkdir(exist_ok=True)

    def take(self, pids: set[int]) -> None:
        for pid in pids:
            try:
                (self.path / "cgroup.procs").write_text(str(pid))
            except ProcessLookupError:
                pass

    def limit(self, percent: int) -> None:
        quota = 100000 * percent // 100
        if self.v2:
            (self.path / "cpu.max").write_text(f"{quota} 100000")
        else:
            (self.path / "cpu.cfs_quota_us").write_text(str(quota))

    def remove(self) -> None:
        self.path.rmdir()


def test_a_run_starved_past_the_cap_is_not_judged(tmp_path):
    """A run given 1% of a CPU reaches neither its CPU limit (200 ms) nor the sleeper's (600 ms
    awake) before the cap (20 x 200 ms): no verdict, a rerun asked for, nothing recorded. The
    sandbox's processes are moved into the throttled group once the fork server has a child (the
    file's import sleeps 0.3 s in the check before any run, to leave time for that); the judge
    itself is not throttled."""
    package = tmp_path / "gqa"
    (package / "tests").mkdir(parents=True)
    (package / "problem.toml").write_text((GQA / "problem.toml").read_text().replace(
        "time_limit_ms = 1000", "time_limit_ms = 200"))
    shutil.copy(GQA / "tests" / "001-sample.json", package / "tests")
    path = tmp_path / "starved.py"
    path.write_text("import time\ntime.sleep(0.3)\nclass Solution:\n    def grouped_query_attention(self, *a):\n"
                    "        while True:\n            pass\n")
    home = tmp_path / "home"
    throttle = _Throttle(f"judge-test-{os.getpid()}")
    proc = None
    try:
        proc = subprocess.Popen(judge_command(path, "--problem", package, "--json"), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=ROOT,
                                env=judge_env(env={"JUDGE_HOME": str(home)}))
        throttle.limit(1)
        deadline = time.monotonic() + 60
        while sum(map(is_python, sandbox_processes(path))) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)  # the fork server is up (its numpy import done) once it has a child
        throttle.take(sandbox_processes(path))
        out, err = proc.communicate(timeout=600)
    finally:
        throttle.limit(100)
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        throttle.remove()
    assert (proc.returncode, json.loads(out)) == (2, {"error": "the machine is too busy to judge this run: rerun"}), err
    assert not sandbox_processes(path)
    history = run_judge("history", "--json", env={"JUDGE_HOME": str(home)})
    assert json.loads(history.stdout) == [], history.stdout
