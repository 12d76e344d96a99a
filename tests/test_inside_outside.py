"""The same code makes about the same page faults judged as in a plain Python process.

A run's child is forked fresh from the fork server, and glibc's default malloc thresholds in a
fresh process (every block over 128 KiB mapped anew, the heap's top given back at once) made code
whose arrays grow step by step fault every page in again at every step: the program below, a
decoder that concatenates its KV cache at each position, made ~74,000 minor faults judged against
~3,200 in a plain interpreter, and paid for them in system time. `walls.steady_allocator` gives
every run the thresholds of a warmed-up process; this test keeps that from coming back, through
the real judge on a real file, against bench/inside_outside/outside.py on the same test's input.

Faults, not CPU time: they count what the allocator does, which no load on the machine changes,
so the bound holds on a busy machine too. `make bench` shows what they cost in CPU time.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from helpers import ROOT, run_judge

from problems import load

BENCH = ROOT / "bench" / "inside_outside"
PROGRAM = BENCH / "causal_decode.py"  # causal's 024-large: 512 positions, a 1 MiB cache at the end
PROBLEM, TEST = load("causal"), "024-large"
BOUND = 2.0
# What the fork server sets for every run (sandbox/inside/server.py), for the plain process too.
SANDBOX_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
               "NUMEXPR_NUM_THREADS": "1", "NUMPY_MADVISE_HUGEPAGE": "0"}
# Appended to the program: the call's own faults come back as the run's error message.
COUNTED = """

import resource

_method = Solution.causal_self_attention


def _counted(self, *args):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    _method(self, *args)
    raise RuntimeError(f"faults={resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before}")


Solution.causal_self_attention = _counted
"""


def _inside(tmp_path: Path) -> int:
    """The call's minor page faults in the judge's run."""
    counted = tmp_path / "counted.py"
    counted.write_text(PROGRAM.read_text() + COUNTED)
    done = run_judge(counted, "--problem", PROBLEM.slug, "--tests", TEST, "--json")
    run = json.loads(done.stdout)["tests"][0]
    found = re.fullmatch(r"RuntimeError: faults=(\d+)", run["message"])
    assert run["verdict"] == "RE" and found, run
    return int(found.group(1))


def _outside() -> int:
    """The same Solution's construction and call in a plain process: its minor page faults."""
    protocol = json.dumps({"method": PROBLEM.method, "arguments": list(PROBLEM.arg_names), "stream": None})
    done = subprocess.run([sys.executable, str(BENCH / "outside.py"), str(PROGRAM), protocol,
                           str(PROBLEM.tests_dir / f"{TEST}.json")],
                          capture_output=True, text=True, cwd=ROOT, timeout=600, check=True,
                          env={**os.environ, **SANDBOX_ENV})
    return json.loads(done.stdout)["faults"]


def test_a_growing_cache_faults_judged_as_often_as_outside(tmp_path):
    inside, outside = _inside(tmp_path), _outside()
    assert inside <= BOUND * outside, (
        f"{PROGRAM.name} on {PROBLEM.slug} {TEST}: {inside} minor page faults judged, {outside} outside "
        f"({inside / outside:.1f}x). Is walls.steady_allocator still called in each run's child "
        "(sandbox/inside/server.py, _child)?")
