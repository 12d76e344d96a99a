"""Adding a problem touches only its own folders (issue 8): a row-softmax problem, nothing like
attention, is generated, validated, verified and judged by the unchanged engines.

The package lives in tests/newproblem/ (problem.toml, reference.py, recipes.toml and bundled
submissions); its tests are generated into a temporary copy, as a problem setter's would be.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import helpers
import pytest
from helpers import first_fast

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "tests" / "newproblem"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, timeout=1800)


@pytest.fixture(scope="module")
def setter(tmp_path_factory) -> Path:
    """The package and its solutions, copied where a problem setter would work, tests generated."""
    work = tmp_path_factory.mktemp("setter")
    shutil.copytree(SOURCE / "softmax", work / "packages" / "softmax")
    shutil.copytree(SOURCE / "solutions", work / "solutions")
    made = run("-m", "testcases", str(work / "packages" / "softmax"))
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith("softmax: 7 tests, ")
    return work


def test_generated_tests_validate(setter):
    checked = run("-m", "testcases", "validate", str(setter / "packages" / "softmax"))
    assert (checked.returncode, checked.stdout, checked.stderr) == (0, "softmax: 7 tests, all valid\n", "")
    names = sorted(p.name for p in (setter / "packages" / "softmax" / "tests").glob("*.json"))
    assert names == ["001-sample.json", "002-edge.json", "003-soft.json", "004-extreme.json", "005-ties.json",
                     "006-large.json", "007-extreme.json"]


@pytest.mark.slow  # every bundled submission, TLE ones to their limit
def test_verify_holds(setter):
    proved = run("-m", "testcases.verify", "--problems-dir", str(setter / "packages"),
                 "--solutions-dir", str(setter / "solutions"))
    assert proved.returncode == 0, proved.stdout + proved.stderr
    assert proved.stdout.rstrip().endswith("verify: softmax: every check holds.")


@pytest.mark.parametrize("folder, name, verdict", [
    ("accepted", "vectorised.py", "AC"),
    pytest.param("wrong_answer", "over_columns.py", "WA", marks=pytest.mark.slow),  # the fast tier judges one
    pytest.param("run_time_error", "crash.py", "RE", marks=pytest.mark.slow),
])
def test_judge_gives_the_folders_verdict(setter, folder, name, verdict):
    _, report = helpers.judge(setter / "solutions" / "softmax" / folder / name, "--problem",
                              str(setter / "packages" / "softmax"))
    assert (report["problem"], report["verdict"], report["total"]) == ("softmax", verdict, 7)


SOFTMAX = SOURCE / "softmax"
RUNMEAN = ROOT / "tests" / "interactive" / "runmean"  # an interactive package (issue 11)


@pytest.mark.parametrize("package, old, new, message", first_fast([
    (SOFTMAX, 'name = "Z"\n', "", "missing key 'args[1].name'"),
    (SOFTMAX, "min = 1\nmax = 300\ndescription = \"rows\"", "max = 300\ndescription = \"rows\"",
     "missing key 'sizes.R.min'"),
    (SOFTMAX, "time_limit_ms = 1000", 'time_limit_ms = "1s"', "'time_limit_ms' must be int, got str"),
    (RUNMEAN, 'kind = "interactive"', 'kind = "stream"', "'kind' must be one of function, interactive, got 'stream'"),
    (RUNMEAN, 'stream = "X"', 'stream = "T"',
     "'stream' must name an array argument (its rows are sent one per step), got 'T'"),
    (RUNMEAN, 'constructor = ["w", "b"]', 'constructor = ["w"]',
     "'constructor' must list every argument but the stream 'X' once, in the order __init__ takes them "
     "(arguments: X, w, b)"),
    (RUNMEAN, "accepted_divisor = 4", "accepted_divisor = 0",
     "verify.accepted_divisor must be a whole number from 1 up, got 0"),
    (RUNMEAN, "accepted_divisor = 4", "speed = 4",
     "verify.speed is not a setting (known: accepted_divisor, reference_divisor, attention)"),
    (RUNMEAN, "accepted_divisor = 4", "attention = true",
     "verify.attention needs the sizes T, d_model, the derived size d_k and the array arguments X, W_Q, b_Q, W_K, "
     "b_K (its rules read the scores from them)"),
    # Issue 28: each of these was a traceback or a message naming something else.
    (SOFTMAX, 'shape = ["R", "C"]\nrange = [-100, 100]\n', "",
     "args[1] (Z): say what it is: shape and range (an array), range alone (an int argument, e.g. range = [1, 1024]) "
     "or size (an int equal to one of [sizes])"),
    (SOFTMAX, 'range = [-100, 100]\n', "",
     "args[1] (Z): an array needs range = [lo, hi] (two numbers, lo <= hi), got None"),
    (SOFTMAX, 'shape = ["R", "C"]\nrange', 'shape = ["R", "Cols"]\nrange',
     "args[1] (Z).shape[1]: unknown size 'Cols' in 'Cols' (known: C, R)"),
    (SOFTMAX, 'description = "the scores"\n', 'description = "the scores"\n\n[[args]]\nname = "k"\nsize = "RR"\n',
     "args[2] (k): size 'RR' is not a size of [sizes] (known: R, C)"),
    (SOFTMAX, 'description = "the scores"\n', 'description = "the scores"\n\n[[args]]\nname = "k"\nrange = [1.5, 3]\n',
     "args[2] (k): an int argument's range must be two whole numbers [lo, hi] with lo <= hi, got [1.5, 3]"),
    (SOFTMAX, 'description = "the scores"\n', 'description = "the scores"\nshap = ["R"]\n',
     "args[1] (Z): unknown key 'shap' (known: name, shape, range, group, size, description, description_zh, "
     "mask_hidden, integer)"),
    (SOFTMAX, "[sizes.C]", "[sizes.K]\nmin = 1\nmax = 3\n\n[sizes.C]",
     "sizes.K: no argument shows it, so a test cannot give it: use it alone as an axis of an array's shape, give an "
     "int argument size = 'K', or move it to [derived]"),
]), ids=lambda value: value.name if isinstance(value, Path) else None)
def test_a_setters_mistake_in_problem_toml_is_one_line(tmp_path, package, old, new, message):
    folder = tmp_path / package.name
    shutil.copytree(package, folder)
    toml = folder / "problem.toml"
    assert old in toml.read_text()
    toml.write_text(toml.read_text().replace(old, new, 1))
    made = run("-m", "testcases", str(folder))
    assert (made.returncode, made.stderr) == (2, f"error: {toml}: {message}\n")
