"""`python -m testcases.verify`, through its real entry point, on a copy of mqa broken one way at a time.

Each test copies mqa's package (its tests, statements and problem.toml) and a few of its bundled
solutions into a temporary folder, breaks one thing, and checks that verify stops at that rule
with a message naming the file. The unmodified copy must pass; so must the real repository.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import tomllib
from pathlib import Path

import pytest

from problems import load
from testcases.package_rules import RULES, applicable

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
    for name in ("problem.toml", "reference.py", "spec.md", "spec.zh.md"):
        shutil.copy(MQA / name, package / name)
    tests = sorted((MQA / "tests").glob("*.json"))
    assert tests, "mqa has no stored tests (run make testcases)"
    for path in tests:
        shutil.copy(path, package / "tests" / path.name)
    for folder, names in COPIED.items():
        (tmp_path / "solutions" / "mqa" / folder).mkdir(parents=True)
        for name in names:
            shutil.copy(SOLUTIONS / folder / name, tmp_path / "solutions" / "mqa" / folder / name)
    write_steps(tmp_path)
    write_editorial(tmp_path)
    return tmp_path


def write_steps(root: Path, **extra: int) -> None:
    """The copy's wrong_answer/steps.toml: the real entries of the files it holds, and `extra`."""
    steps = tomllib.loads((SOLUTIONS / "wrong_answer" / "steps.toml").read_text())
    folder = root / "solutions" / "mqa" / "wrong_answer"
    entries = {p.name: steps.get(p.name) for p in sorted(folder.glob("*.py"))} | extra
    (folder / "steps.toml").write_text("".join(f'"{name}" = {json.dumps(step)}\n' for name, step in entries.items()))


def write_editorial(root: Path) -> None:
    """The copy's editorial.toml: mqa's idea and the approach of each accepted file it holds (a file the
    test wrote itself gets one saying so)."""
    real = tomllib.loads((MQA / "editorial.toml").read_text())
    known = {a["file"]: a for a in real["approach"]}

    def pairs(table: dict) -> str:
        return "".join(f"{key} = {json.dumps(value, ensure_ascii=False)}\n" for key, value in table.items())

    text = "[idea]\n" + pairs(real["idea"])
    for path in sorted((root / "solutions" / "mqa" / "accepted").glob("*.py")):
        own = {"file": path.name, "time": "O(1)", "memory": "O(1)", "en": "The test's file.", "zh": "测试的文件。"}
        text += "\n[[approach]]\n" + pairs(known.get(path.name, own))
    (root / "packages" / "mqa" / "editorial.toml").write_text(text)


def verify(root: Path, *argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "testcases.verify", "--problems-dir", "packages", "--solutions-dir", "solutions",
         *argv],
        capture_output=True, text=True, cwd=root, timeout=1800, env={**os.environ, **(env or {})},
    )


def _pressure(path: Path, total_us: int) -> None:
    """A stand-in for /proc/pressure/cpu whose "some" counter stands at total_us, replaced whole so
    that verify never reads it half written."""
    part = path.with_suffix(".part")
    part.write_text(f"some avg10=0.00 avg60=0.00 avg300=0.00 total={total_us}\n"
                    "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")
    part.replace(path)


@pytest.mark.slow
def test_unmodified_copy_passes(copy: Path):
    proc = verify(copy)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert lines[0].split() == "problem submission expected obtained slowest / limit first failing test".split()
    # fixed-width columns: problem, submission, expected, obtained, then slowest and first failing test
    rows = {line[9:59].rstrip(): [line[60:69].rstrip(), line[70:79].rstrip()]
            for line in lines if line.startswith("mqa ")}
    count = len(list((copy / "packages" / "mqa" / "tests").glob("*.json")))
    assert rows.pop("reference.py")[0] == "<=1% tol"
    assert rows == {
        f"tests/ ({count} files)": ["valid", "valid"],
        f"package rules ({len(applicable(load(str(MQA))))})": ["hold", "hold"],
        **{f"{folder}/{name}": [verdict, verdict]
           for folder, verdict in (("accepted", "AC"), ("wrong_answer", "WA"), ("run_time_error", "RE"))
           for name in COPIED[folder]},
    }
    assert proc.stdout.splitlines()[-1] == "verify: mqa: every check holds."


def test_wrong_expected_value(copy: Path):
    """Rule 2: a stored expected value the reference does not give (in a test other than the sample,
    whose expected output the statements show: the package rule on stale statements would stop
    verify first)."""
    path = copy / "packages" / "mqa" / "tests" / "008-soft.json"
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
        f"verify: packages/mqa/tests/008-soft.json: expected[1][2] = {stored!r} but reference.py gives "
        f"{ours!r}: off by {abs(ours - stored):.3g}, more than 1% of the tolerance ({allowed:.3g})"
    ]


def _burning(seconds: float) -> str:
    """The correct solution, spending `seconds` of CPU time on the sample first."""
    burn = ("        if X[0] == [1, 2, 0, 1]:\n"
            "            import time\n"
            f"            end = time.process_time() + {seconds}\n"
            "            while time.process_time() < end:\n"
            "                for _ in range(20000):\n"
            "                    pass\n")
    source = CORRECT.read_text()
    signature = re.search(r"    def multi_query_attention\(.*\):\n", source).group(0)
    return source.replace(signature, signature + burn)


@pytest.mark.slow
def test_slow_accepted_solution_is_a_warning(copy: Path):
    """Rule 3's margin: right, but 300 ms of user CPU on the sample, more than a fifth of the 1000 ms
    limit: sensitive to the time limit, a warning; no verdict changes, so verify holds.
    (The clock is read rarely: reading a CPU clock is a system call, and the margin counts user time.)"""
    (copy / "solutions" / "mqa" / "accepted" / "slow.py").write_text(_burning(0.3))
    write_editorial(copy)
    proc = verify(copy)
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    # Only this file's line: on a busy machine another accepted file may be over a fifth too.
    [line] = [line for line in proc.stdout.splitlines()
              if line.startswith("verify: warning: solutions/mqa/accepted/slow.py")]
    match = re.fullmatch(r"verify: warning: solutions/mqa/accepted/slow\.py: sensitive to the time limit: accepted "
                         r"solution's slowest test 001-sample took (\d+) ms of user CPU time \(fastest of 3 runs\), "
                         r"more than 1/5 of the 1000 ms limit", line)
    assert match, line
    assert 280 <= int(match.group(1)) < 1000


@pytest.mark.slow
def test_accepted_solution_over_half_the_limit_is_a_violation(copy: Path):
    """Rule 3, Kattis' ac_to_time_limit: right on every test, but 600 ms of CPU on the sample with a
    1000 ms limit: the package's limit is too tight for it, a violation with the figures."""
    (copy / "solutions" / "mqa" / "accepted" / "slow.py").write_text(_burning(0.6))
    write_editorial(copy)
    psi = copy / "psi"
    _pressure(psi, 5)  # the machine as quiet as can be, whatever it really is now
    proc = verify(copy, env={"JUDGE_PSI_CPU": str(psi)})
    assert proc.returncode == 1
    [line] = proc.stderr.splitlines()
    match = re.fullmatch(r"verify: solutions/mqa/accepted/slow\.py: the accepted solution's slowest test 001-sample "
                         r"took (\d+) ms of CPU time \(fastest of 5 runs\), more than half the 1000 ms limit: every "
                         r"accepted solution must run within half of it \(raise time_limit_ms or shrink the test\)",
                         line)
    assert match, line
    assert 590 <= int(match.group(1)) < 1000


@pytest.mark.slow
def test_accepted_solution_over_half_the_limit_on_a_contended_machine_is_not_measured(copy: Path):
    """Rule 3 on an oversubscribed machine (a task waiting for a CPU all along, as PSI says): CPU
    times are inflated, so the margin is neither proved nor broken; a warning with the figure."""
    (copy / "solutions" / "mqa" / "accepted" / "slow.py").write_text(_burning(0.6))
    write_editorial(copy)
    psi = copy / "psi"
    start = time.monotonic()
    _pressure(psi, 0)
    stop = threading.Event()

    def waiting_all_along():
        while not stop.wait(0.01):
            _pressure(psi, int((time.monotonic() - start) * 1e6))

    writer = threading.Thread(target=waiting_all_along)
    writer.start()
    try:
        proc = verify(copy, env={"JUDGE_PSI_CPU": str(psi)})
    finally:
        stop.set()
        writer.join()
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    [line] = [line for line in proc.stdout.splitlines()
              if line.startswith("verify: warning: solutions/mqa/accepted/slow.py")]
    assert re.fullmatch(r"verify: warning: solutions/mqa/accepted/slow\.py: the time margin was not measured: its "
                        r"slowest test 001-sample took \d+ ms of CPU time, more than half the 1000 ms limit, but other "
                        r"work kept a task waiting for a CPU (9\d|100)% of the time in each judging \(Linux PSI\), "
                        r"which inflates CPU times; run verify again on a quieter machine", line), line


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
    write_steps(copy, **{"not_wrong.py": 3})
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
    """Rule 5's margin: past 1.5x the limit (as Kattis requires) but not past twice it: a warning."""
    (copy / "solutions" / "mqa" / "time_limit_exceeded").mkdir()
    (copy / "solutions" / "mqa" / "time_limit_exceeded" / "slowish.py").write_text(_burning(1.7))
    proc = verify(copy)
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    [line] = [line for line in proc.stdout.splitlines()
              if line.startswith("verify: warning: solutions/mqa/time_limit_exceeded/")]
    assert re.fullmatch(r"verify: warning: solutions/mqa/time_limit_exceeded/slowish\.py: sensitive to the time limit: "
                        r"time_limit_exceeded solution's slowest test 001-sample took 17\d\d ms, not more than 2 "
                        r"times the 1000 ms limit", line), line


@pytest.mark.slow
def test_solution_filed_as_too_slow_within_one_and_a_half_limits_is_a_violation(copy: Path):
    """Rule 5, Kattis' time_limit_to_tle: over the limit, but only 1.3x: a violation with the figures."""
    (copy / "solutions" / "mqa" / "time_limit_exceeded").mkdir()
    (copy / "solutions" / "mqa" / "time_limit_exceeded" / "slowish.py").write_text(_burning(1.3))
    proc = verify(copy)
    assert proc.returncode == 1
    [line] = proc.stderr.splitlines()
    assert re.fullmatch(r"verify: solutions/mqa/time_limit_exceeded/slowish\.py: time_limit_exceeded solution's "
                        r"slowest test 001-sample took 13\d\d ms of CPU time, not more than 1\.5 times the 1000 ms "
                        r"limit: a solution filed as too slow must be well past it \(lower time_limit_ms or grow the "
                        r"test\)", line), line


@pytest.mark.slow
def test_dead_weight_category_is_a_warning(copy: Path):
    """Rule 4's report: with one wrong solution that fails only at T = 1, categories without T = 1 warn."""
    wrong = copy / "solutions" / "mqa" / "wrong_answer"
    for path in wrong.iterdir():
        if path.name not in ("squeezed_output_at_T1.py", "steps.toml"):
            path.unlink()
    write_steps(copy)
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


# The package rules (testcases/package_rules.py), each broken on its own: verify stops before judging
# anything, with one line naming the place and the rule as problems/README.md states it.

def _tests(root: Path) -> Path:
    return root / "packages" / "mqa" / "tests"


def _edit(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def _relabel(root: Path, names: list[str], category: str) -> None:
    """Give these tests another category (their file names follow)."""
    for name in names:
        path = _tests(root) / name
        _edit(path, lambda d: d.update(category=category))
        path.rename(path.with_name(f"{name[:3]}-{category}.json"))


def _drop(root: Path, category: str) -> None:
    """Remove a category's tests and number the rest again, without gaps."""
    for path in _tests(root).glob(f"*-{category}.json"):
        path.unlink()
    for number, path in enumerate(sorted(_tests(root).glob("*.json")), 1):
        path.rename(path.with_name(f"{number:03d}-{path.stem.split('-', 1)[1]}.json"))


def _toml(root: Path, old: str, new: str) -> None:
    path = root / "packages" / "mqa" / "problem.toml"
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new, 1))


def _one_head_copy_of_the_large_test(root: Path) -> None:
    """A soft test with the large test's sizes but one head: W_K and W_V grow to d_model columns."""
    data = json.loads((_tests(root) / "022-large.json").read_text())
    heads, data["input"]["num_heads"] = data["input"]["num_heads"], 1
    for name in ("W_K", "W_V"):
        data["input"][name] = [row * heads for row in data["input"][name]]
    for name in ("b_K", "b_V"):
        data["input"][name] = data["input"][name] * heads
    data["category"] = "soft"
    (_tests(root) / "024-soft.json").write_text(json.dumps(data))


def _swap_the_first_two(root: Path) -> None:
    """The sample becomes test 2 and the first edge test test 1."""
    sample, edge = _tests(root) / "001-sample.json", _tests(root) / "002-edge.json"
    first, second = edge.read_text(), sample.read_text()
    sample.unlink()
    edge.unlink()
    (_tests(root) / "001-edge.json").write_text(first)
    (_tests(root) / "002-sample.json").write_text(second)


def _zero_scores(data: dict) -> None:
    """X and the query and key biases all zero: every score q . k is 0."""
    def zero(value):
        return [zero(v) for v in value] if isinstance(value, list) else 0

    for name in ("X", "b_Q", "b_K"):
        data["input"][name] = zero(data["input"][name])


def _distinct_rows(data: dict) -> None:
    for t, row in enumerate(data["input"]["X"]):
        row[0] = t


def _editorial(root: Path, change) -> None:
    path = root / "packages" / "mqa" / "editorial.toml"
    path.write_text(change(path.read_text()))


EDITORIAL = (" (package rule: editorial.toml has the idea and, for each accepted solution, its approach with time, "
             "memory and prose, in English and Chinese)")

PACKAGE_RULES = {
    "first test is the sample": (
        _swap_the_first_two,
        "packages/mqa/tests/001-edge.json: the first test is of category edge "
        "(package rule: the first test is the sample (category sample))"),
    "every category": (
        lambda root: _drop(root, "ties"),
        "packages/mqa/tests: no test of category ties (package rule: every category has a test: the six shared "
        "ones and each one recipes.toml declares)"),
    "sizes at both ends": (
        lambda root: _toml(root, "max = 512", "max = 600"),
        "packages/mqa/tests: no test has T = 600 (its max) (package rule: every size reaches its min and its max "
        "in some test (a real scalar both ends of its range))"),
    "maxima in a large test": (
        lambda root: (_relabel(root, ["022-large.json"], "soft"), _relabel(root, ["021-soft.json"], "large")),
        "packages/mqa/tests: no test of category large has d_model = 256 (its max) (package rule: every size that "
        "is an axis of an array argument on its own reaches its max in a test of category large)"),
    "largest input in a large test": (
        _one_head_copy_of_the_large_test,
        "packages/mqa/tests/024-soft.json: 394241 input elements, more than every test of category large "
        "(270881) (package rule: the largest input (most elements) is in a test of category large)"),
    "attention: d_k = 1": (
        lambda root: _relabel(root, ["002-edge.json", "003-edge.json", "004-edge.json"], "soft"),
        "packages/mqa/tests: no edge test has d_k = 1 (package rule: (attention) edge tests include d_k = 1 and a "
        "d_model that is not a power of two)"),
    "attention: d_model not a power of two": (
        lambda root: _relabel(root, ["004-edge.json", "005-edge.json", "013-edge.json", "019-edge.json"], "soft"),
        "packages/mqa/tests: no edge test has a d_model that is not a power of two (package rule: (attention) edge "
        "tests include d_k = 1 and a d_model that is not a power of two)"),
    "attention: overflow": (
        lambda root: [_edit(path, _zero_scores) for path in _tests(root).glob("*-extreme.json")],
        "packages/mqa/tests: the largest score of the extreme tests is 0, which exp() takes without overflow (above "
        "709.78 it overflows) (package rule: (attention) some extreme test has a score beyond 709.78, where an "
        "unshifted softmax overflows)"),
    "extreme at the ends": (
        lambda root: _toml(root, "range = [-1000, 1000]", "range = [-2000, 1000]"),
        "packages/mqa/tests: no extreme test has X = -2000 as an integer (package rule: the extreme tests reach "
        "both ends of every array argument's range, as an integer and as a real (masks aside; as an integer only "
        "where the end is a whole number))"),
    "extreme at a real end": (  # -5.5 has no integer form: asked for as a real only
        lambda root: _toml(root, "range = [-5, 5]", "range = [-5.5, 5]"),
        "packages/mqa/tests: no extreme test has b_Q = -5.5 as a real (package rule: the extreme tests reach both "
        "ends of every array argument's range, as an integer and as a real (masks aside; as an integer only where "
        "the end is a whole number))"),
    "ties": (
        lambda root: [_edit(path, _distinct_rows) for path in _tests(root).glob("*-ties.json")],
        "packages/mqa/tests/006-ties.json: no array argument repeats a row (along its last axis) (package rule: "
        "every ties test repeats a row of some array argument)"),
    "budget": (
        lambda root: (_tests(root) / "022-large.json").write_text((_tests(root) / "022-large.json").read_text()
                                                                 + " " * (6 << 20)),
        "packages/mqa/tests: {MiB} MiB of test JSON, over 8 MiB (package rule: the stored tests take at most 8 MiB "
        "of JSON)"),
    "statements": (
        lambda root: (root / "packages" / "mqa" / "spec.zh.md").write_text(
            (root / "packages" / "mqa" / "spec.zh.md").read_text().replace("≤ 512", "≤ 513", 1)),
        "packages/mqa/spec.zh.md: the 'constraints' block is stale: run make testcases (package rule: spec.md and "
        "spec.zh.md carry the constraints and sample blocks as make testcases renders them)"),
    "wrong answers' steps": (
        lambda root: write_steps(root) or (root / "solutions" / "mqa" / "wrong_answer" / "steps.toml").write_text(
            '"no_scale.py" = 3\n"squeezed_output_at_T1.py" = "Output"\n'),
        "solutions/mqa/wrong_answer/steps.toml: no step for forgot_b_V.py (package rule: every wrong answer names "
        "its statement step in wrong_answer/steps.toml)"),
    "no_single_answer's section": (
        lambda root: _toml(root, "output_shape = ", 'no_single_answer = "Refusals"\noutput_shape = '),
        "packages/mqa/spec.md: no section '## Refusals', which no_single_answer in problem.toml names (package "
        "rule: spec.md has the section that no_single_answer in problem.toml names)"),
    "no editorial.toml": (
        lambda root: (root / "packages" / "mqa" / "editorial.toml").unlink(),
        "packages/mqa/editorial.toml: no such file (every package explains its accepted solutions there)" + EDITORIAL),
    "an accepted file without its approach": (
        lambda root: _editorial(root, lambda text: text[:text.index('\n[[approach]]\nfile = "tall_matrix_2d.py"')]),
        "packages/mqa/editorial.toml: no [[approach]] for tall_matrix_2d.py (solutions/mqa/accepted/tall_matrix_2d.py)"
        + EDITORIAL),
    "an approach for an unknown file": (
        lambda root: _editorial(root, lambda text: text.replace('"tall_matrix_2d.py"', '"tall.py"')),
        "packages/mqa/editorial.toml: approach[2].file: tall.py is not a file of solutions/mqa/accepted" + EDITORIAL),
    "the idea without its Chinese": (
        lambda root: _editorial(root, lambda text: re.sub(r"(?m)^zh = .*\n", "", text, count=1)),
        "packages/mqa/editorial.toml: idea.zh is missing" + EDITORIAL),
}


# a verify per rule: the fast tier proves the first, make test every one
@pytest.mark.parametrize("rule", [pytest.param(rule, marks=pytest.mark.slow if i else ())
                                  for i, rule in enumerate(PACKAGE_RULES)])
def test_each_package_rule_stops_verify_before_anything_is_judged(copy: Path, rule: str):
    breaking, message = PACKAGE_RULES[rule]
    breaking(copy)
    proc = verify(copy)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    [line] = proc.stderr.splitlines()
    total = sum(path.stat().st_size for path in _tests(copy).glob("*.json"))
    assert line == f"verify: {message}".replace("{MiB}", f"{total / 2**20:.2f}")
    assert "reference.py" not in proc.stdout  # stopped before the reference was run


def _rule_of(message: str) -> str:
    """The rule a message names: what follows '(package rule: ', without the closing parenthesis."""
    return message.split(" (package rule: ", 1)[1][:-1]


def test_every_package_rule_has_a_broken_package_above():
    assert sorted({_rule_of(message) for _, message in PACKAGE_RULES.values()}) == sorted(r.text for r in RULES)


def test_the_guide_lists_every_package_rule_in_order():
    """problems/README.md's numbered list under "The package rules": one item per rule, in verify's
    order, each starting with the words verify's message quotes."""
    guide = (ROOT / "problems" / "README.md").read_text(encoding="utf-8")
    section = guide.split("### The package rules\n", 1)[1].split("\n#", 1)[0]
    items = [" ".join(item.split()) for item in re.findall(r"^\d+\. (.*?)(?=^\d+\. |^$)", section, re.M | re.S)]
    assert len(items) == len(RULES)
    for item, rule in zip(items, RULES):
        assert item.startswith(rule.text), (item, rule.text)


def test_a_judging_the_machine_was_too_busy_for_is_judged_again(monkeypatch, capsys):
    """"Too busy" is a rerun, not a verdict: verify judges the file again, BUSY_TRIES times in all."""
    from problems import load
    from problems.bundled import bundled
    from sandbox.errors import MachineBusy
    from testcases import verify

    problem = load("gqa")
    entry = next(e for e in bundled(problem, verify.SOLUTIONS) if e.expected == "AC")
    calls: list[str] = []

    def busy_then(answer: str, busy: int):
        def judge_file(*args, **options):
            calls.append(answer)
            if len(calls) <= busy:
                raise MachineBusy("the machine is too busy to judge this run: rerun")
            return answer
        return judge_file

    monkeypatch.setattr(verify, "BUSY_PAUSE_S", 0)
    monkeypatch.setattr(verify, "judge_file", busy_then("judged", verify.BUSY_TRIES - 1))
    assert verify._judge(entry, problem) == "judged" and len(calls) == verify.BUSY_TRIES
    assert capsys.readouterr().err.count("too busy to judge a run; judging it again") == verify.BUSY_TRIES - 1

    calls.clear()
    monkeypatch.setattr(verify, "judge_file", busy_then("judged", verify.BUSY_TRIES))
    with pytest.raises(MachineBusy):
        verify._judge(entry, problem)
    assert len(calls) == verify.BUSY_TRIES
