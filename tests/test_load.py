"""A verdict that depends on the code alone: judged while loads hold both cores (two busy loops
per core, or one NumPy stream per core, which also inflates the run's own CPU time: tests/helpers.py,
LOADS), correct code stays AC, a busy loop is TLE by its CPU time, a sleeper by the wall clock, an
interactive run is not blamed for the judge's own turns, a run the machine starves past the
wall-clock cap gets no verdict but a request to rerun (exit 2, nothing recorded), and a TLE that
other work held back is judged again (issue 33)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, age, children, is_python, judge, judge_command, judge_env, loaded, run_judge

from sandbox.sandbox import sandbox_processes

pytestmark = pytest.mark.slow  # busy loops on every core, then judgings that must hold under them

GQA = ROOT / "problems" / "gqa"


LOADS = [("loops", 2), ("numpy", 1)]  # (kind, processes per core)


@pytest.fixture(params=LOADS, ids=[kind for kind, _ in LOADS])
def busy_cores(request):
    """Two busy loops per core, or one NumPy stream per core, for the test's duration."""
    with loaded(*request.param):
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
    assert "judged_again" not in test  # held back or not, it went past what contention explains (1.5x)


def test_a_sleeper_is_ended_by_the_wall_clock(busy_cores, tmp_path):
    code, report = judge(submission(tmp_path, "        time.sleep(60)\n"), "--problem", "gqa", "--tests", "001")
    test = report["tests"][0]
    assert (code, test["verdict"]) == (1, "TLE")
    assert test["message"].startswith("sleeping or blocked: ended after "), test


@pytest.mark.parametrize("load", [("loops", 8), ("numpy", 1)], ids=["loops", "numpy"])
def test_an_interactive_run_is_not_charged_for_the_judges_turns(load):
    """1280 steps, each waiting for the judge to send the next row: with eight busy loops per
    core beside the judge, its turns add up to more than the 3 s wall limit (the run then got
    TLE, "sleeping or blocked", while they were counted as the run's)."""
    for _ in range(3):  # on a machine busy before the test's own loops, the run may get no verdict
        with loaded(*load):
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


HELD_BACK_LIMIT_MS = 400
# The reference, made slow when held back: under a small CPU quota it spends 1.25x the limit (an
# overrun contention can explain, so its test is judged again); fast when it gets a CPU. gqa's in
# its call; gqa_decode's (interactive) in its constructor.
SLOW_WHEN_HELD_BACK = """

import time as _time

_Reference = Solution


def _slow_when_held_back():
    wall, cpu = _time.perf_counter(), _time.process_time()
    while _time.perf_counter() - wall < 0.3:
        pass
    if (_time.process_time() - cpu) / (_time.perf_counter() - wall) < 0.2:  # 10%: the quota
        while _time.process_time() < {spend_s}:
            pass


class Solution(_Reference):
    def {method}(self, *args):
        if {sleeper} and len(args[0]) != 2:  # a test after the sample: asleep, TLE whatever the load
            _time.sleep(60)
        _slow_when_held_back()
        return super().{method}(*args)

_time.sleep(0.3)  # in the import check: time to throttle the fork server
"""


HELD_IS_TLE = """
import json, sys
from pathlib import Path
from grading.session import Options, judge_file
from problems import load
report = judge_file(Path(sys.argv[1]), load(sys.argv[2]), Options(held_is_tle=True))
print(json.dumps({"verdict": report.verdict, "tests": [t.verdict for t in report.tests],
                  "judged_again": len(report.tests[0].judged_again)}))
"""


def _run_child(path: Path) -> int | None:
    """The fork server's child that has lived over a second: a run (compiling and the import check
    are quick), or None."""
    processes = sandbox_processes(path)
    for pid in filter(is_python, processes):  # the fork server (bubblewrap is its parent)
        for child in children(pid):
            if is_python(child) and child in processes and age(child) > 1.0:
                return child
    return None


@pytest.mark.parametrize(("problem", "method", "throttled"), [
    ("gqa", "grouped_query_attention", "first run"), ("gqa", "grouped_query_attention", "every run"),
    ("gqa", "grouped_query_attention", "every run, then a sleeper"),
    ("gqa", "grouped_query_attention", "every run, then a sleeper, --all"),
    ("gqa", "grouped_query_attention", "every run, held is TLE"), ("gqa_decode", "__init__", "first run")])
def test_a_tle_other_work_held_back_is_judged_again(tmp_path, problem, method, throttled):
    """Under a 10% CPU quota the run waits for a CPU ~90% of its wall clock and ends at 1.25x its
    limit: its test is judged again, alone, a few seconds later (a function problem's and an
    interactive one's). With the quota lifted after the first run, the run that counts is AC and
    the report says why the first did not count. Kept on, every run is held back: the machine is
    too busy to judge it (exit 2, as before), unless a later test is TLE whatever the load (asleep
    here), which makes the verdict TLE either way, with --all too (make verify judges so); and
    held_is_tle (make verify's too-slow check, at 3x the limit) makes such a test TLE at once."""
    original = ROOT / "problems" / problem
    package = tmp_path / problem
    (package / "tests").mkdir(parents=True)
    (package / "problem.toml").write_text(re.sub(r"(?m)^time_limit_ms = \d+", f"time_limit_ms = {HELD_BACK_LIMIT_MS}",
                                                 (original / "problem.toml").read_text()))
    sleeper = throttled.startswith("every run, then a sleeper")
    for name in ["001-sample"] + ["002-edge"] * sleeper:
        shutil.copy(original / "tests" / f"{name}.json", package / "tests")
    path = tmp_path / "held_back.py"
    path.write_text((original / "reference.py").read_text() + SLOW_WHEN_HELD_BACK.format(
        method=method, spend_s=1.25 * HELD_BACK_LIMIT_MS / 1000, sleeper=sleeper))
    throttle = _Throttle(f"judge-test-{os.getpid()}")
    proc = None
    try:
        every = ["--all"] if throttled.endswith("--all") else []
        command = judge_command(path, "--problem", package, "--json", "--progress", *every)
        if throttled.endswith("held is TLE"):  # as verify calls it: in process, with the option
            command = [sys.executable, "-c", HELD_IS_TLE, str(path), str(package)]
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                                env=judge_env())
        throttle.limit(10)
        deadline = time.monotonic() + 60
        while sum(map(is_python, sandbox_processes(path))) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)  # the fork server is up (its numpy import done) once it has a child
        throttle.take(sandbox_processes(path))
        if throttled == "first run":
            while (run := _run_child(path)) is None and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.01)
            while run is not None and run in sandbox_processes(path):
                time.sleep(0.01)
            throttle.limit(100)  # the next run comes RERUN_DELAY_S after this one ended
        out, err = proc.communicate(timeout=600)
    finally:
        throttle.limit(100)
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        throttle.remove()
    report = json.loads(out.splitlines()[-1])  # after a progress line per test: the report, its text too
    if throttled == "every run":
        assert (proc.returncode, report) == (2, {"error": "the machine is too busy to judge this run: rerun"}), err
        return
    if throttled.endswith("held is TLE"):
        assert (proc.returncode, report) == (0, {"verdict": "TLE", "tests": ["TLE"], "judged_again": 2}), err
        return
    if sleeper:
        held, asleep = report["tests"]
        assert (proc.returncode, report["verdict"], held["verdict"], asleep["verdict"]) == (1, "TLE", "TLE", "TLE")
        assert len(held["judged_again"]) == 2 and asleep["message"].startswith("sleeping or blocked"), report
        assert re.fullmatch(rf"used \d+ ms of CPU time, over the limit of {HELD_BACK_LIMIT_MS} ms; the machine was "
                            "busy on every run, but test 002-edge is TLE whatever the load, so the verdict is TLE "
                            "either way", held["message"]), held["message"]
        return
    if proc.returncode == 2:
        pytest.skip("the machine was too busy, besides this test's quota, to judge the run again")
    test = report["tests"][0]
    assert (proc.returncode, test["verdict"]) == (0, "AC"), test
    [why] = test["judged_again"]
    assert re.fullmatch(rf"used (\d+) ms of CPU time, over the limit of {HELD_BACK_LIMIT_MS} ms, while it waited for a "
                        r"CPU (\d+)% of its \d+\.\d s of wall-clock time", why), why
    used, share = map(int, re.findall(r"\d+", why)[:1] + re.findall(r"(\d+)%", why))
    assert HELD_BACK_LIMIT_MS < used <= 1.5 * HELD_BACK_LIMIT_MS and share >= 25, why
    assert f"\n  001-sample: judged again 1 time, the machine being busy: {why}\n" in report["text"]
