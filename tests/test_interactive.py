"""Interactive problems (issue 11): Solution(...) once, then one call per row, judged step by step.

The protocol is judged on a small problem that is not attention (tests/interactive/runmean: the
running mean of the rows seen so far), generated into a temporary folder as a problem setter's
would be: verify proves it with its bundled submissions, and hostile submissions try the protocol
itself (reading ahead, answering before being asked, oversized or misshapen answers, lingering).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import helpers
import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "tests" / "interactive"


# the walls: bubblewrap, or Landlock where bubblewrap is not used; the fast tier checks the default
MODES = ["auto", pytest.param("landlock", marks=pytest.mark.slow)]


def run(*args: str, cwd: Path = ROOT, mode: str = "auto") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd, timeout=1800,
                          env=dict(os.environ, JUDGE_SANDBOX=mode))


@pytest.fixture(scope="module")
def setter(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("interactive")
    shutil.copytree(SOURCE / "runmean", work / "packages" / "runmean")
    shutil.copytree(SOURCE / "solutions", work / "solutions")
    made = run("-m", "testcases", str(work / "packages" / "runmean"))
    assert made.returncode == 0, made.stderr
    return work


def judge(setter: Path, tmp_path: Path, source: str, *extra: str, mode: str = "auto") -> tuple[int, dict]:
    sub = tmp_path / "submission.py"
    sub.write_text(textwrap.dedent(source))
    return helpers.judge(sub, "--problem", str(setter / "packages" / "runmean"), *extra, mode=mode)


CORRECT = """
    class Solution:
        def __init__(self, w, b):
            self.w, self.b, self.total, self.n = w, b, [0.0] * len(w), 0

        def step(self, x):
            self.n += 1
            self.total = [t + v for t, v in zip(self.total, x)]
            return [t / self.n * w + b for t, w, b in zip(self.total, self.w, self.b)]
"""


def test_generated_tests_store_the_stream_and_every_step(setter):
    sample = json.loads((setter / "packages" / "runmean" / "tests" / "001-sample.json").read_text())
    assert sample["input"] == {"X": [[1, 2], [3, 4], [5, 0]], "w": [1, 2], "b": [0, 1]}
    assert sample["expected"] == [[1.0, 5.0], [2.0, 7.0], [3.0, 5.0]]


@pytest.mark.slow  # every bundled submission, TLE ones to their limit
def test_verify_holds(setter):
    proved = run("-m", "testcases.verify", "--problems-dir", str(setter / "packages"),
                 "--solutions-dir", str(setter / "solutions"))
    assert proved.returncode == 0, proved.stdout + proved.stderr
    assert "time_limit_exceeded/recompute_every_step.py        TLE       TLE" in proved.stdout


@pytest.mark.slow  # all six tests, one round trip into the sandbox per step
def test_correct_is_accepted(setter, tmp_path):
    code, report = judge(setter, tmp_path, CORRECT)
    assert (code, report["verdict"], report["passed"]) == (0, "AC", 7)


def test_a_wrong_step_is_named_with_its_values(setter, tmp_path):
    wrong = SOURCE / "solutions" / "runmean" / "wrong_answer" / "mean_of_previous_rows.py"
    code, report = judge(setter, tmp_path, wrong.read_text())
    first = report["tests"][0]
    assert (code, report["verdict"], first["name"], first["step"]) == (1, "WA", "001-sample", 1)
    assert first["message"] == ("step t = 1 (of 0..2): element 0: expected 2.0, got 4.0 (error 2 > allowed 2e-09); "
                                "2 of 2 elements differ")
    text = helpers.run_judge(wrong, "--problem", setter / "packages" / "runmean").stdout
    assert "  step:     1 (the call for row 1 of the input; the steps before it were right)" in text


def test_an_answer_of_another_length_is_wrong(setter, tmp_path):
    code, report = judge(setter, tmp_path, CORRECT.replace("return [t / self.n", "return [0.0] + [t / self.n"))
    assert report["verdict"] == "WA" and report["tests"][0]["step"] == 0
    assert report["tests"][0]["message"] == "step t = 0 (of 0..2): returned shape (3,), expected (2,)"


def test_an_exception_in_the_constructor(setter, tmp_path):
    code, report = judge(setter, tmp_path, """
        class Solution:
            def __init__(self, w, b):
                raise KeyError("no cache yet")

            def step(self, x):
                return x
    """)
    assert report["verdict"] == "RE"
    assert report["tests"][0]["message"] == "KeyError: 'no cache yet' while constructing Solution()"


def test_an_exception_in_a_step_names_the_step(setter, tmp_path):
    failing = CORRECT.replace("self.n += 1", "self.n += 1\n            assert self.n < 3, 'full'")
    code, report = judge(setter, tmp_path, failing)
    first = report["tests"][0]
    assert (report["verdict"], first["step"]) == ("RE", 2)
    assert first["message"] == "AssertionError: full in step 2 (counting from 0)"


PIPES = """
    import fcntl, os, stat
    def pipes(mode):
        \"\"\"The run's pipe ends opened for reading (O_RDONLY) or writing (O_WRONLY).\"\"\"
        for fd in range(256):  # probed, not listed: /proc may be out of reach
            try:
                if stat.S_ISFIFO(os.fstat(fd).st_mode) and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == mode:
                    yield fd
            except OSError:
                pass
"""


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_reading_the_next_row_early_blocks_until_the_wall_clock(setter, tmp_path, mode):
    """Row t+1 is not in the sandbox before step t is answered: reading ahead waits for nothing."""
    code, report = judge(setter, tmp_path, PIPES + """
    class Solution:
        def __init__(self, w, b):
            pass

        def step(self, x):
            for fd in pipes(os.O_RDONLY):
                os.read(fd, 1 << 16)
            return x
    """, "--tests", "001", mode=mode)
    assert report["verdict"] == "TLE"
    assert report["tests"][0]["message"].startswith("sleeping or blocked: ended after ")


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_answering_before_being_asked_gains_nothing(setter, tmp_path, mode):
    code, report = judge(setter, tmp_path, PIPES + """
    import json, struct
    class Solution:
        def __init__(self, w, b):
            answer = json.dumps({"status": "ok", "shape": [2], "type": "list"}).encode() + b"\\n" + bytes(16)
            for fd in pipes(os.O_WRONLY):
                for _ in range(50):
                    os.write(fd, struct.pack(">I", len(answer)) + answer)

        def step(self, x):
            return x
    """, "--tests", "001", mode=mode)
    assert (code, report["verdict"]) == (1, "WA")
    assert report["tests"][0]["step"] == 0


@pytest.mark.parametrize("mode", MODES)
def test_the_step_pipes_cannot_be_reopened_the_other_way_round(setter, tmp_path, mode):
    """The run holds the rows' read end and the answers' write end; through /proc/self/fd it could
    open each again the other way round (the warm fork server keeps them for later runs). The
    pipes are made with no permission bits, so no reopening, in either direction, is allowed."""
    code, report = judge(setter, tmp_path, PIPES + """
    import errno
    class Solution:
        def __init__(self, w, b):
            tried = []
            for held, other in ((os.O_RDONLY, os.O_WRONLY), (os.O_WRONLY, os.O_RDONLY)):
                for fd in pipes(held):
                    for flags in (other, held, os.O_RDWR):
                        try:
                            os.close(os.open(f"/proc/self/fd/{fd}", flags | os.O_NONBLOCK))
                            tried.append("reopened")
                        except OSError as exc:
                            tried.append(errno.errorcode.get(exc.errno, str(exc.errno)))
            raise RuntimeError(f"pipes {len(tried) // 3}: " + " ".join(sorted(set(tried))))

        def step(self, x):
            return x
    """, "--tests", "001", mode=mode)
    message = report["tests"][0]["message"]
    assert report["verdict"] == "RE" and message.startswith("RuntimeError: pipes "), message
    pipes, outcomes = message.removeprefix("RuntimeError: pipes ").split(": ")
    assert int(pipes) >= 2 and "reopened" not in outcomes.split(), message


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_an_oversized_answer_ends_the_run(setter, tmp_path, mode):
    code, report = judge(setter, tmp_path, PIPES + """
    import struct
    class Solution:
        def __init__(self, w, b):
            pass

        def step(self, x):
            for fd in pipes(os.O_WRONLY):
                os.write(fd, struct.pack(">I", 1 << 30) + bytes(1 << 16))
            return x
    """, "--tests", "001", mode=mode)
    assert report["verdict"] == "WA"
    assert report["tests"][0]["message"] == ("step t = 0 (of 0..2): a step's answer of 1073741824 bytes is over "
                                             "the limit")


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_lingering_after_the_last_step_is_ended(setter, tmp_path, mode):
    """A run that will not exit when its input ends is killed; its answers stand."""
    code, report = judge(setter, tmp_path, CORRECT + """
    import gc, time
    for runner in [o for o in gc.get_objects() if type(o).__name__ == "Runner"]:
        def read_frame(fd, limit, original=runner.read_frame):
            try:
                return original(fd, limit)
            except EOFError:
                time.sleep(60)
        runner.read_frame = read_frame
    """, mode=mode)
    assert (code, report["verdict"], report["passed"]) == (0, "AC", 7)


def test_practice_run_shows_the_answered_steps_beside_the_reference(setter, tmp_path):
    wrong = SOURCE / "solutions" / "runmean" / "wrong_answer" / "mean_of_previous_rows.py"
    package = str(setter / "packages" / "runmean")
    shown = helpers.run_judge("run", wrong, "--problem", package).stdout
    assert f"-m judge run {wrong} --problem {package}\n" in shown
    assert "  your run answered steps 0-1 of 0-2 (a wrong step ends it)\n" in shown
    assert "  rows 0-1, columns 0-1 of (2, 2); 2 element(s) differ, marked *\n" in shown


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_a_thread_flooding_the_answers_cannot_hold_the_judge(setter, tmp_path, mode):
    """Frames written without end, from a thread, while the steps go on: each test still ends at
    its first wrong step, and the next test starts clean (--all)."""
    code, report = judge(setter, tmp_path, PIPES + """
    import json, struct, threading
    class Solution:
        def __init__(self, w, b):
            frame = json.dumps({"status": "ok", "shape": [len(w)], "type": "list"}).encode() + b"\\n"
            frame += bytes(8 * len(w))

            def flood():
                while True:
                    for fd in pipes(os.O_WRONLY):
                        try:
                            os.write(fd, struct.pack(">I", len(frame)) + frame)
                        except OSError:
                            pass
            threading.Thread(target=flood, daemon=True).start()

        def step(self, x):
            return x
    """, "--all", mode=mode)
    assert report["verdict"] == "WA" and report["total"] == 7
    assert all(t["verdict"] == "WA" and t["step"] is not None for t in report["tests"]), report["tests"]
