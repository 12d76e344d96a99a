"""`python -m testcases.verify`, through its real entry point, on a copy of mqa broken one way at a time.

Each test copies mqa's package (its non-large tests, to stay fast) and a few of its bundled
solutions into a temporary folder, breaks one thing, and checks that verify stops at that rule
with a message naming the file. The unmodified copy must pass; so must the real repository.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MQA = ROOT / "problems" / "mqa"
SOLUTIONS = ROOT / "solutions" / "mqa"
# A few bundled solutions, each a different route or bug: enough to run every step quickly.
COPIED = {
    "accepted": ["loop_heads_column_slices.py", "tall_matrix_2d.py"],
    "wrong_answer": ["no_scale.py", "forgot_b_V.py", "squeezed_output_at_T1.py"],
    "run_time_error": ["squeeze_shared_head.py"],
}
CORRECT = SOLUTIONS / "accepted" / "loop_heads_column_slices.py"


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """tmp_path/packages/mqa (no large tests) and tmp_path/solutions/mqa with a few submissions.

    Not tmp_path/problems: run from tmp_path, that folder would shadow the `problems` package.
    """
    package = tmp_path / "packages" / "mqa"
    (package / "tests").mkdir(parents=True)
    for name in ("problem.toml", "reference.py"):
        shutil.copy(MQA / name, package / name)
    tests = [p for p in sorted((MQA / "tests").glob("*.json")) if not p.stem.endswith("-large")]
    assert tests, "mqa has no stored tests (run make testcases)"
    for number, path in enumerate(tests, 1):  # renumbered where a large one is left out: no gaps
        shutil.copy(path, package / "tests" / f"{number:03d}-{path.stem.split('-', 1)[1]}.json")
    for folder, names in COPIED.items():
        (tmp_path / "solutions" / "mqa" / folder).mkdir(parents=True)
        for name in names:
            shutil.copy(SOLUTIONS / folder / name, tmp_path / "solutions" / "mqa" / folder / name)
    return tmp_path


def verify(root: Path, *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "testcases.verify", "--problems-dir", "packages", "--solutions-dir", "solutions",
         *argv],
        capture_output=True, text=True, cwd=root, timeout=1800,
    )


@pytest.mark.slow
def test_unmodified_copy_passes(copy: Path):
    proc = verify(copy)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert lines[0].split() == "problem submission expected obtained slowest first failing test".split()
    # fixed-width columns: problem, submission, expected, obtained, then slowest and first failing test
    rows = {line[9:59].rstrip(): [line[60:69].rstrip(), line[70:79].rstrip()]
            for line in lines if line.startswith("mqa ")}
    count = len(list((copy / "packages" / "mqa" / "tests").glob("*.json")))
    assert rows.pop("reference.py")[0] == "<=1% tol"
    assert rows == {
        f"tests/ ({count} files)": ["valid", "valid"],
        **{f"{folder}/{name}": [verdict, verdict]
           for folder, verdict in (("accepted", "AC"), ("wrong_answer", "WA"), ("run_time_error", "RE"))
           for name in COPIED[folder]},
    }
    assert proc.stdout.splitlines()[-1] == "verify: mqa: every check holds."


def test_wrong_expected_value(copy: Path):
    """Rule 2: a stored expected value the reference does not give."""
    path = copy / "packages" / "mqa" / "tests" / "001-sample.json"
    data = json.loads(path.read_text())
    namespace: dict = {}
    exec(compile((MQA / "reference.py").read_text(), "reference.py", "exec"), namespace)
    ours = namespace["Solution"]().multi_query_attention(*data["input"].values())[1][2]
    stored = data["expected"][1][2] + 0.5
    data["expected"][1][2] = stored
    path.write_text(json.dumps(data))
    proc = verify(copy)
    assert proc.returncode == 1
    allowed = 0.01 * max(1e-6, 1e-6 * abs(stored))
    assert proc.stderr.splitlines() == [
        f"verify: packages/mqa/tests/001-sample.json: expected[1][2] = {stored!r} but reference.py gives "
        f"{ours!r}: off by {abs(ours - stored):.3g}, more than 1% of the tolerance ({allowed:.3g})"
    ]


@pytest.mark.slow
def test_slow_accepted_solution_is_a_warning(copy: Path):
    """Rule 3's margin: right, but 300 ms of user CPU on the sample, more than a fifth of the 1000 ms
    limit: sensitive to the time limit, a warning; no verdict changes, so verify holds.
    (The clock is read rarely: reading a CPU clock is a system call, and the margin counts user time.)"""
    burn = ("        if X[0] == [1, 2, 0, 1]:\n"
            "            import time\n"
            "            end = time.process_time() + 0.3\n"
            "            while time.process_time() < end:\n"
            "                for _ in range(20000):\n"
            "                    pass\n")
    source = CORRECT.read_text()
    signature = re.search(r"    def multi_query_attention\(.*\):\n", source).group(0)
    (copy / "solutions" / "mqa" / "accepted" / "slow.py").write_text(source.replace(signature, signature + burn))
    proc = verify(copy)
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    [line] = [line for line in proc.stdout.splitlines() if line.startswith("verify: warning:")]
    match = re.fullmatch(r"verify: warning: solutions/mqa/accepted/slow\.py: sensitive to the time limit: accepted "
                         r"solution's slowest test 001-sample took (\d+) ms of user CPU time \(fastest of 3 runs\), "
                         r"more than 1/5 of the 1000 ms limit", line)
    assert match, line
    assert 280 <= int(match.group(1)) < 1000


@pytest.mark.slow
def test_slow_reference_is_a_warning(copy: Path):
    """Rule 2's margin: a reference right on every test but over a tenth of the limit on one."""
    burn = ("        if X[0] == [1, 2, 0, 1]:\n"
            "            import time\n"
            "            end = time.process_time() + 0.15\n"
            "            while time.process_time() < end:\n"
            "                for _ in range(20000):\n"
            "                    pass\n")
    reference = copy / "packages" / "mqa" / "reference.py"
    source = reference.read_text()
    signature = re.search(r"    def multi_query_attention\(.*\):\n", source).group(0)
    reference.write_text(source.replace(signature, signature + burn))
    proc = verify(copy)
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    [line] = [line for line in proc.stdout.splitlines() if line.startswith("verify: warning:")]
    match = re.fullmatch(r"verify: warning: packages/mqa/reference\.py: sensitive to the time limit: reference's "
                         r"slowest test 001-sample took (\d+) ms of user CPU time \(fastest of 3 runs\), more than "
                         r"1/10 of the 1000 ms limit", line)
    assert match, line
    assert 130 <= int(match.group(1)) < 1000


@pytest.mark.slow
def test_wrong_solution_that_passes(copy: Path):
    """Rule 4: a correct solution filed as a wrong answer: no test rejects it."""
    shutil.copy(CORRECT, copy / "solutions" / "mqa" / "wrong_answer" / "not_wrong.py")
    proc = verify(copy)
    assert proc.returncode == 1
    count = len(list((copy / "packages" / "mqa" / "tests").glob("*.json")))
    assert proc.stderr.splitlines() == [
        f"verify: solutions/mqa/wrong_answer/not_wrong.py: wrong_answer solution got AC on all {count} tests "
        "(no test rejects it), expected WA"
    ]


@pytest.mark.slow
def test_fast_solution_filed_as_too_slow(copy: Path):
    """Rule 5: a time_limit_exceeded solution must be over the limit somewhere."""
    (copy / "solutions" / "mqa" / "time_limit_exceeded").mkdir()
    shutil.copy(CORRECT, copy / "solutions" / "mqa" / "time_limit_exceeded" / "fast.py")
    proc = verify(copy)
    assert proc.returncode == 1
    [line] = proc.stderr.splitlines()
    assert re.fullmatch(r"verify: solutions/mqa/time_limit_exceeded/fast\.py: time_limit_exceeded solution got AC: "
                        r"its slowest test \d{3}-[a-z]+ took \d+ ms of CPU time, within the 1000 ms limit", line), line


@pytest.mark.slow
def test_slightly_slow_solution_filed_as_too_slow_is_a_warning(copy: Path):
    """Rule 5's margin: over the limit (TLE, as filed) but not past twice it: sensitive, a warning."""
    burn = ("        if X[0] == [1, 2, 0, 1]:\n"
            "            import time\n"
            "            end = time.process_time() + 1.4\n"
            "            while time.process_time() < end:\n"
            "                for _ in range(20000):\n"
            "                    pass\n")
    source = CORRECT.read_text()
    signature = re.search(r"    def multi_query_attention\(.*\):\n", source).group(0)
    (copy / "solutions" / "mqa" / "time_limit_exceeded").mkdir()
    (copy / "solutions" / "mqa" / "time_limit_exceeded" / "slowish.py").write_text(
        source.replace(signature, signature + burn))
    proc = verify(copy)
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    [line] = [line for line in proc.stdout.splitlines() if line.startswith("verify: warning:")]
    assert re.fullmatch(r"verify: warning: solutions/mqa/time_limit_exceeded/slowish\.py: sensitive to the time limit: "
                        r"time_limit_exceeded solution's slowest test 001-sample took 14\d\d ms, not more than 2 "
                        r"times the 1000 ms limit", line), line


@pytest.mark.slow
def test_dead_weight_category_is_a_warning(copy: Path):
    """Rule 4's report: with one wrong solution that fails only at T = 1, categories without T = 1 warn."""
    wrong = copy / "solutions" / "mqa" / "wrong_answer"
    for path in wrong.iterdir():
        if path.name != "squeezed_output_at_T1.py":
            path.unlink()
    categories: dict[str, list[str]] = {}
    for path in sorted((copy / "packages" / "mqa" / "tests").glob("*.json")):
        data = json.loads(path.read_text())
        categories.setdefault(data["category"], []).append((path.stem, len(data["input"]["X"])))
    proc = verify(copy)
    assert proc.returncode == 0, proc.stderr
    expected = [f"verify: warning: packages/mqa/tests: category '{category}' ({', '.join(n for n, _ in tests)}) "
                "rejects none of the 1 wrong_answer solutions: dead weight"
                for category, tests in categories.items() if all(t > 1 for _, t in tests)]
    assert expected  # the sample has T = 3
    assert [line for line in proc.stdout.splitlines() if "warning" in line] == expected


def test_unknown_problem_is_a_usage_error(copy: Path):
    proc = verify(copy, "nope")
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        "verify: unknown problem 'nope': packages/ holds mqa (MQA)"
    ]


@pytest.mark.slow
def test_real_repository_passes():
    """Every shipped problem proves itself with its bundled submissions (about 1.5 min on 2 cores)."""
    proc = subprocess.run([sys.executable, "-m", "testcases.verify"], capture_output=True, text=True, cwd=ROOT,
                          timeout=1800)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_invalid_test_stops_before_anything_runs(copy: Path):
    """Rule 1: the validator's own message, file, argument and rule, before the reference is run."""
    path = copy / "packages" / "mqa" / "tests" / "001-sample.json"
    data = json.loads(path.read_text())
    data["input"]["X"][0][0] = 5000
    path.write_text(json.dumps(data))
    proc = verify(copy)
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        "verify: packages/mqa/tests/001-sample.json: X[0][0]: 5000 is outside the range [-1000, 1000] of problem.toml"
    ]
