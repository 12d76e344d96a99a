"""testcases/turns.py: a judging alone waits until the other verify workers' judgings are over,
and theirs wait for it."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from helpers import ROOT

from testcases import turns

HOLD = """
import sys, time
from pathlib import Path
from testcases import turns
turns.share_with(Path(sys.argv[1]))
with turns.turn(alone=sys.argv[2] == "alone"):
    print("holding", flush=True)
    time.sleep(float(sys.argv[3]))
"""


def _holding(lock: Path, how: str, seconds: float) -> subprocess.Popen:
    """Another worker in a turn of its own, returned once it holds the lock."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(lock), how, str(seconds)], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline() == "holding\n"
    return proc


def test_a_judging_alone_waits_for_the_shared_ones_and_they_for_it(tmp_path, monkeypatch):
    lock = tmp_path / "turns"
    monkeypatch.setattr(turns, "_lock", lock)
    other = _holding(lock, "shared", 2.0)
    start = time.monotonic()
    with turns.turn():  # shared beside shared: while the other still holds its turn
        assert other.poll() is None
    with turns.turn(alone=True):
        assert time.monotonic() - start >= 1.5  # the other judging's turn ended first
    other.wait(timeout=10)
    other = _holding(lock, "alone", 0.6)
    start = time.monotonic()
    with turns.turn():
        assert time.monotonic() - start >= 0.5  # after the judging alone
    other.wait(timeout=10)


def test_a_verify_of_one_problem_takes_no_turns(tmp_path, monkeypatch):
    monkeypatch.setattr(turns, "_lock", None)  # as in a worker never given a file
    with turns.turn(alone=True), turns.turn(alone=True):  # nothing to wait for, not even itself
        pass
