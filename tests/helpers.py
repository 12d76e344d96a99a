"""What several test files share: judging a file through the real command (`python -m judge`, as a
user runs it); loads beside a judging (`loaded`); reading /proc (processes by command line, their
state, parents, children, memory) to tell what a judging left running; and `first_fast`, for the
fast tier (-m "not slow")."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from sandbox.sandbox import sandbox_processes

ROOT = Path(__file__).resolve().parent.parent


def slow_decoder() -> str:
    """A gqa_decode solution right on every test that spends 60% of the problem's time limit in each
    construction: AC, and ~23 tests x that of CPU in all, which no machine finishes before a test
    that follows or cancels the judging is done with it."""
    limit_ms = tomllib.loads((ROOT / "problems" / "gqa_decode" / "problem.toml").read_text())["time_limit_ms"]
    source = (ROOT / "solutions" / "gqa_decode" / "accepted" / "doubling_arrays.py").read_text()
    burn = (f"        import time\n        end = time.process_time() + {0.6 * limit_ms / 1000}\n"
            "        while time.process_time() < end:\n            pass\n")
    return re.sub(r"(    def __init__\(self.*\n)", lambda m: m.group(1) + burn, source, count=1)


TIMEOUT_S = 1800  # a judging that hangs fails its test, not the whole suite


def first_fast(cases: list[tuple]) -> list:
    """Cases of one check, each a tuple of arguments: the fast tier runs the first, make test all."""
    return [case if i == 0 else pytest.param(*case, marks=pytest.mark.slow) for i, case in enumerate(cases)]


def judge_command(*args: str | Path) -> list[str]:
    """`python -m judge ARGS` as an argv, for a judge that a test starts and steers itself (Popen)."""
    return [sys.executable, "-m", "judge", *map(str, args)]


def judge_env(mode: str | None = None, env: dict[str, str] | None = None) -> dict[str, str]:
    """This process's environment, with `mode` as JUDGE_SANDBOX and `env` added."""
    return {**os.environ, **({"JUDGE_SANDBOX": mode} if mode is not None else {}), **(env or {})}


def run_judge(*args: str | Path, mode: str | None = None, env: dict[str, str] | None = None,
              text: bool = True) -> subprocess.CompletedProcess:
    """`python -m judge ARGS` from the checkout, its output captured. `mode`: JUDGE_SANDBOX;
    `env`: added to this process's environment."""
    return subprocess.run(judge_command(*args), capture_output=True, text=text, cwd=ROOT, timeout=TIMEOUT_S,
                          env=judge_env(mode, env))


def judge(path: Path, *args: str, mode: str | None = None, env: dict[str, str] | None = None) -> tuple[int, dict]:
    """Judge `path` with --json: (exit code, report). Nothing of its sandbox may outlive the
    judging, and the report is one line."""
    proc = run_judge(path, "--json", *args, mode=mode, env=env)
    assert_nothing_left(path)
    assert proc.stdout.count("\n") == 1, proc.stdout + proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def assert_nothing_left(path: Path | str) -> None:
    """No process of the sandboxes of `path` (found by the label they carry in `ps`) is running."""
    assert not sandbox_processes(path), "a sandbox process outlived the judging"


def processes_naming(path: Path | str) -> set[int]:
    """Pids of live processes whose command line names `path`: a judge of it, say (its sandbox's
    processes carry a label instead: sandbox_processes)."""
    needle = str(path).encode()
    found = set()
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and needle in (entry / "cmdline").read_bytes():
                found.add(int(entry.name))
        except OSError:  # it has just ended
            pass
    return found


def status(pid: int) -> dict[str, str]:
    """/proc/PID/status as a dict ({} once the process has ended)."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return {}
    return {key: value.strip() for key, _, value in (line.partition(":") for line in lines)}


def is_python(pid: int) -> bool:
    """By name: a non-dumpable process's exe link is not readable to an unprivileged user."""
    return status(pid).get("Name", "").startswith("python")


def uid(pid: int) -> int | None:
    """The process's real uid, None once it has ended."""
    try:
        return int(status(pid)["Uid"].split()[0])
    except (KeyError, IndexError, ValueError):
        return None


def program(pid: int) -> bytes:
    """The first word of the process's command line (b"" once it has ended)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0]
    except OSError:
        return b""


def holds(pid: int, marker: str) -> bool:
    """Whether the process's readable memory holds `marker` (as root: /proc/PID/mem)."""
    needle = marker.encode()
    try:
        maps = Path(f"/proc/{pid}/maps").read_text().splitlines()
        with open(f"/proc/{pid}/mem", "rb") as memory:
            for line in maps:
                span, perms = line.split()[:2]
                if "r" not in perms:
                    continue
                start, end = (int(x, 16) for x in span.split("-"))
                try:
                    memory.seek(start)
                    if needle in memory.read(end - start):
                        return True
                except (OSError, OverflowError, ValueError):  # a mapping the kernel will not read out
                    continue
    except (FileNotFoundError, ProcessLookupError):
        return False
    return False


def state(pid: int) -> str:
    """The one-letter state (R, S, Z...), "gone" once the process is reaped."""
    return status(pid).get("State", "gone").split()[0]


def children(pid: int) -> list[int]:
    """The process's children, started by any of its threads ([] once it has ended)."""
    found = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            found += [int(child) for child in (task / "children").read_text().split()]
    except OSError:  # it, or one of its threads, has just ended
        pass
    return found


def parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def age(pid: int) -> float:
    """Seconds since the process started (0 once it has ended)."""
    try:
        start = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
        return float(Path("/proc/uptime").read_text().split()[0]) - start / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


# The loads a judging must hold under: a pure-Python busy loop hardly touches the caches; a NumPy
# stream (2048x2048 products and copies of 64 MiB, more than any cache holds) also makes the run's
# own CPU time grow, as a machine's real work does (issue 33).
LOADS = {  # each says "ready" once it loads the machine
    "loops": "print('ready', flush=True)\nwhile True: pass",
    "numpy": ("import numpy as np\n"
              "a, b = np.random.rand(2048, 2048), np.random.rand(2048, 2048)\n"
              "c, big = np.empty_like(a), np.random.rand(8 << 20)\n"
              "copy = np.empty_like(big)\n"
              "print('ready', flush=True)\n"
              "while True:\n"
              "    np.matmul(a, b, out=c)\n"
              "    for _ in range(8):\n"
              "        np.copyto(copy, big)\n"),
}


@contextlib.contextmanager
def loaded(kind: str, per_core: int):
    """`per_core` processes of a load (LOADS) per core, in the test's own session: where the kernel
    groups a session's processes for scheduling (autogroup), they share the judge's group, and
    the sandbox's session competes with that whole group. One BLAS thread each."""
    count = per_core * (os.cpu_count() or 1)
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    procs = [subprocess.Popen([sys.executable, "-c", LOADS[kind]], env=env, stdout=subprocess.PIPE)
             for _ in range(count)]
    try:
        for proc in procs:  # the arrays made: the load is on before the judging starts
            assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
        yield
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()
