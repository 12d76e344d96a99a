"""Argument and output kinds beyond arrays of reals (issues 34 and 35), each proved through the real
commands on a small package of tests/newproblem/: generated into a temporary copy, validated,
rendered and judged."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import helpers
import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "tests" / "newproblem"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, timeout=600)


def made(tmp_path_factory, slug: str) -> Path:
    """The package copied where a setter works, its tests generated."""
    folder = tmp_path_factory.mktemp(slug) / slug
    shutil.copytree(SOURCE / slug, folder)
    generated = run("-m", "testcases", str(folder))
    assert generated.returncode == 0, generated.stderr
    return folder


def judged(package: Path, folder: str, name: str) -> dict:
    _, report = helpers.judge(SOURCE / "solutions" / package.name / folder / name, "--problem", str(package))
    return report


def remade(package: Path, old: str, new: str, file: str = "recipes.toml") -> subprocess.CompletedProcess:
    """`python -m testcases` on the package with one edit to one of its files."""
    path = package / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    try:
        return run("-m", "testcases", str(package))
    finally:
        path.write_text(text)


# -- real scalars: shape = [] ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def tempered(tmp_path_factory) -> Path:
    return made(tmp_path_factory, "tempered")


def test_a_real_scalar_is_fixed_by_a_recipe_or_drawn_in_its_range(tempered):
    values = [json.loads(p.read_text())["input"]["temperature"] for p in sorted((tempered / "tests").glob("*.json"))]
    assert values[0] == 1 and values[1] == 0.5 and values[3] == 4.0
    assert all(type(v) is float and 0.5 <= v <= 4 for v in values[1:])
    assert len(set(values[1:])) == 5  # the others drawn: each test its own


def starter(package: Path) -> str:
    """The starter file `python -m judge start` writes for the package."""
    out = package.parent / "starter.py"
    out.unlink(missing_ok=True)
    proc = run("-m", "judge", "start", str(package), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    return out.read_text()


def test_a_real_scalar_is_stated_as_a_float(tempered):
    assert "| `temperature` | float | 0.5 ≤ `temperature` ≤ 4 |" in (tempered / "spec.md").read_text()
    assert "| `temperature` | 实数 (float) | 0.5 ≤ `temperature` ≤ 4 |" in (tempered / "spec.zh.md").read_text()
    assert "temperature: float in [0.5, 4]; divides every score" in starter(tempered)


def test_a_real_scalar_reaches_the_method_as_a_float(tempered):
    # the accepted file raises unless temperature is a float; the sample stores the whole number 1
    assert (judged(tempered, "accepted", "float_checked.py")["verdict"]) == "AC"


@pytest.mark.slow
def test_a_forgotten_real_scalar_is_wrong(tempered):
    assert (judged(tempered, "wrong_answer", "ignores_temperature.py")["verdict"]) == "WA"


@pytest.mark.parametrize("old, new, message", [
    ("scalars = {temperature = 4}", "scalars = {temperature = 5}",
     "test 4: scalars: temperature must be a number in [0.5, 4], got 5"),
    ("scalars = {temperature = 4}", "scalars = {Z = 4}",
     "test 4: scalars: 'Z' is not a real scalar argument (shape = []) of tempered_softmax (known: temperature)"),
    ("temperature = 1\n", "temperature = [1]\n",
     "test 1: input: temperature: must be a real number in [0.5, 4.0], got [1]"),
])
def test_a_bad_real_scalar_is_one_line(tempered, old, new, message):
    proc = remade(tempered, old, new)
    assert (proc.returncode, proc.stderr) == (2, f"error: {tempered / 'recipes.toml'}: {message}\n")


def test_a_real_scalar_needs_a_range(tempered):
    proc = remade(tempered, "shape = []\nrange = [0.5, 4]\n", "shape = []\n", "problem.toml")
    assert (proc.returncode, proc.stderr) == (2, f"error: {tempered / 'problem.toml'}: args[2] (temperature): a real "
                                                 "scalar (shape = []) needs range = [lo, hi] (two finite numbers, lo "
                                                 "<= hi), got None\n")


# -- integer arrays: integer = true ---------------------------------------------------------------

@pytest.fixture(scope="module")
def gather(tmp_path_factory) -> Path:
    return made(tmp_path_factory, "gather")


def test_an_integer_array_is_drawn_as_whole_numbers_in_its_size_range(gather):
    for path in sorted((gather / "tests").glob("*.json")):
        data = json.loads(path.read_text())
        columns = len(data["input"]["Z"][0])
        assert all(type(i) is int and 0 <= i <= columns - 1 for i in data["input"]["idx"]), path.name
    extreme = json.loads((gather / "tests" / "004-extreme.json").read_text())["input"]["idx"]
    assert set(extreme) == {0, 7}  # limits = 1.0: both ends of [0, C - 1] at C = 8


def test_an_integer_array_is_stated_as_ints(gather):
    assert "| `idx` | `(R)` | int, 0 ≤ each element ≤ C - 1 |" in (gather / "spec.md").read_text()
    assert "| `idx` | `(R)` | 整数 (int)，0 ≤ 每个元素 ≤ C - 1 |" in (gather / "spec.zh.md").read_text()
    assert "idx: shape (R), ints in [0, C - 1]; the column to pick in each row" in starter(gather)


def test_an_integer_array_reaches_the_method_as_ints(gather):
    assert judged(gather, "accepted", "int_checked.py")["verdict"] == "AC"


@pytest.mark.slow
def test_a_wrong_gather_is_wrong(gather):
    assert judged(gather, "wrong_answer", "first_column.py")["verdict"] == "WA"


@pytest.mark.parametrize("old, new, message", [
    ("idx = [2, 1]", "idx = [2.0, 1]", "test 1: input: idx[0]: 2.0 is not an integer (an integer array holds whole "
                                       "numbers)"),
    ("idx = [2, 1]", "idx = [3, 1]", "test 1: input: idx[0]: 3 is outside the range [0, 2] of problem.toml"),
    ("scale = 0.5", "decimals = 2", "test 3: decimals for idx: an integer array holds whole numbers only"),
])
def test_a_bad_integer_array_is_one_line(gather, old, new, message):
    proc = remade(gather, old, new)
    assert (proc.returncode, proc.stderr) == (2, f"error: {gather / 'recipes.toml'}: {message}\n")


@pytest.mark.parametrize("old, new, message", [
    ('range = [0, "C - 1"]', 'range = [0, "V - 1"]', "args[2] (idx).range[1]: unknown size 'V' in 'V - 1' "
                                                      "(known: C, R)"),
    ("integer = true\nrange", "integer = 1\nrange",
     "args[2] (idx): integer must be true (an array of whole numbers) or left out, got 1"),
    ('range = [0, "C - 1"]', "range = [0, 2.5]", "args[2] (idx): an integer array needs range = [lo, hi], each a "
                                                  "whole number or a size expression (\"V - 1\"), lo <= hi, got "
                                                  "[0, 2.5]"),
])
def test_a_bad_integer_declaration_is_one_line(gather, old, new, message):
    proc = remade(gather, old, new, "problem.toml")
    assert (proc.returncode, proc.stderr) == (2, f"error: {gather / 'problem.toml'}: {message}\n")


# -- scalar output: output_shape = [] -------------------------------------------------------------

@pytest.fixture(scope="module")
def meansquare(tmp_path_factory) -> Path:
    return made(tmp_path_factory, "meansquare")


def test_a_scalar_output_is_stored_and_stated_as_one_number(meansquare):
    sample = json.loads((meansquare / "tests" / "001-sample.json").read_text())
    assert sample["expected"] == 2.3333333333333335
    assert run("-m", "testcases", "validate", str(meansquare)).stdout == "meansquare: 6 tests, all valid\n"
    spec = (meansquare / "spec.md").read_text()
    assert "Expected output, in full precision:\n\n```text\n2.3333333333333335\n```" in spec
    assert "Rounded to 2 decimals for reading: `2.33`." in spec
    assert "The result is one number: a float (a 0-d array, or an array holding one element, is read as that " \
           "number)." in spec
    assert "结果是一个数" in (meansquare / "spec.zh.md").read_text()


@pytest.mark.parametrize("name", ["python_float.py", pytest.param("keepdims_array.py", marks=pytest.mark.slow)])
def test_a_scalar_output_is_accepted_as_a_float_or_one_element(meansquare, name):
    assert judged(meansquare, "accepted", name)["verdict"] == "AC"


def test_a_wrong_scalar_output_says_the_value(meansquare, tmp_path):
    # the sum instead of the mean, returned as a (1, 1) array: read as the number it holds
    wrapped = tmp_path / "wrapped.py"
    wrapped.write_text("import numpy as np\n\n\nclass Solution:\n    def mean_square(self, Z):\n"
                       "        return np.array([[float(np.sum(np.square(Z)))]])\n")
    proc = helpers.run_judge(wrapped, "--problem", str(meansquare), "--hint", "2", "--no-record")
    assert "problem:  the value: expected 2.3333333333333335, got 14.0 (error 11.7 > allowed 2.33e-09)\n" \
        in proc.stdout, proc.stdout + proc.stderr
    ran = run("-m", "judge", "run", str(wrapped), "--problem", str(meansquare), "--no-record")
    assert "  yours: 14*   reference: 2.33333\n" in ran.stdout, ran.stdout + ran.stderr


@pytest.mark.slow  # runs the bundled wrong answer in a sandbox of its own
def test_hints_match_a_scalar_output(meansquare, tmp_path):
    from coach.hints import hint
    from grading.session import Options, judge_file
    from problems import load

    wrapped = tmp_path / "wrapped.py"
    wrapped.write_text("import numpy as np\n\n\nclass Solution:\n    def mean_square(self, Z):\n"
                       "        return np.array([float(np.sum(np.square(Z)))])\n")
    report = judge_file(wrapped, load(str(meansquare)), Options(keep_output=True))
    told = hint(report, 2, SOURCE / "solutions")
    assert (told.kind, told.matches) == ("step", ["wrong_answer/sum_not_mean.py"])
    assert told.text == ("your output goes wrong at step 2 of the statement (Mean): Bug: the sum of squares, never "
                            "divided by the count")


@pytest.mark.slow  # stress judges several drawn inputs
def test_stress_finds_a_wrong_scalar_output(meansquare, tmp_path):
    out = tmp_path / "found.json"
    proc = run("-m", "judge", "stress", str(SOURCE / "solutions" / "meansquare" / "wrong_answer" / "sum_not_mean.py"),
               "--problem", str(meansquare), "--n", "5", "--out", str(out))
    assert "  the value: expected 1.0, got 2.0 (error 1 > allowed 1e-09)\n\n  yours: 2*   reference: 1\n" \
        in proc.stdout, proc.stdout + proc.stderr
    assert json.loads(out.read_text()) == {"input": {"Z": [[-1, 1]]}}


# -- tuple output: output_shape = ["2", "R", "C"] -------------------------------------------------

@pytest.fixture(scope="module")
def twoscales(tmp_path_factory) -> Path:
    return made(tmp_path_factory, "twoscales")


def test_a_tuple_output_is_stated_as_a_stack(twoscales):
    assert ("The result has shape `(2, R, C)`. An element is accepted when |got − expected| ≤ 1e-9 or |got − "
            "expected| ≤ 1e-9 · |expected|. A tuple or list of 2 arrays of shape `(R, C)` is read as their stack "
            "(`np.asarray(...)`), in order.") in (twoscales / "spec.md").read_text()
    assert "返回 2 个形状为 `(R, C)` 的数组组成的元组或列表时" in (twoscales / "spec.zh.md").read_text()
    sample = json.loads((twoscales / "tests" / "001-sample.json").read_text())["expected"]
    assert sample == [[[2.0, 4.0, 6.0], [0.0, 0.0, 0.0]], [[3.0, 6.0, 9.0], [0.0, 0.0, 0.0]]]


@pytest.mark.parametrize("folder, name, verdict", [
    ("accepted", "tuple_of_arrays.py", "AC"),
    pytest.param("accepted", "list_of_lists.py", "AC", marks=pytest.mark.slow),
    pytest.param("wrong_answer", "swapped.py", "WA", marks=pytest.mark.slow),
])
def test_a_tuple_output_is_checked_as_its_stack(twoscales, folder, name, verdict):
    assert judged(twoscales, folder, name)["verdict"] == verdict


def test_a_tuple_of_unequal_arrays_is_one_wrong_answer(twoscales, tmp_path):
    ragged = tmp_path / "ragged.py"
    ragged.write_text("import numpy as np\n\n\nclass Solution:\n    def two_scales(self, Z):\n"
                      "        Z = np.asarray(Z)\n        return 2 * Z, 3 * Z[:, :1]\n")
    _, report = helpers.judge(ragged, "--problem", str(twoscales), "--no-record")
    assert report["verdict"] == "WA"
    assert report["tests"][0]["message"].startswith("the returned value is not a rectangular array of numbers")


# -- exact integer outputs: [tolerance] abs = 0, rel = 0 ------------------------------------------

@pytest.fixture(scope="module")
def argmaxrow(tmp_path_factory) -> Path:
    # made at all: with nothing allowed, the conditioning check must not divide by the tolerance
    return made(tmp_path_factory, "argmaxrow")


def test_an_exact_output_is_stored_as_ints_and_stated_in_words(argmaxrow):
    assert json.loads((argmaxrow / "tests" / "001-sample.json").read_text())["expected"] == [2, 1]
    assert all(type(i) is int for p in (argmaxrow / "tests").glob("*.json")
               for i in json.loads(p.read_text())["expected"])
    assert ("The result has shape `(R)`. Every element must equal the expected whole number exactly (an int, or a "
            "float holding it).") in (argmaxrow / "spec.md").read_text()
    assert "结果的形状为 `(R)`。每个元素必须与期望的整数完全相等" in (argmaxrow / "spec.zh.md").read_text()


def test_an_exact_output_is_judged_exactly(argmaxrow):
    assert judged(argmaxrow, "accepted", "numpy_argmax.py")["verdict"] == "AC"
    proc = helpers.run_judge(SOURCE / "solutions" / "argmaxrow" / "wrong_answer" / "argmin.py", "--problem",
                             str(argmaxrow))
    assert "  problem:  element 0: expected 2, got 0 (an exact match is required); 2 of 2 elements differ\n" \
        in proc.stdout, proc.stdout + proc.stderr


@pytest.mark.slow  # the whole verify of a small package: every bundled file judged
def test_verify_proves_an_exact_package(argmaxrow, tmp_path):
    problems, solutions = tmp_path / "packages", tmp_path / "solutions"
    shutil.copytree(argmaxrow, problems / "argmaxrow")
    shutil.copytree(SOURCE / "solutions" / "argmaxrow", solutions / "argmaxrow")
    proc = run("-m", "testcases.verify", "--problems-dir", str(problems), "--solutions-dir", str(solutions))
    assert "argmaxrow reference.py                                       <=1% tol  0%" in proc.stdout, proc.stdout
    assert proc.stdout.rstrip().endswith("verify: argmaxrow: every check holds.")


# -- a package's own memory limit, proved by verify -----------------------------------------------

@pytest.fixture(scope="module")
def rowsums(tmp_path_factory) -> Path:
    return made(tmp_path_factory, "rowsums")


def test_the_packages_own_memory_limit_is_enforced(rowsums):
    # 64 MiB fits the usual 256 MiB; this package allows 40
    report = judged(rowsums, "memory_limit_exceeded", "padded_to_64_mib.py")
    assert report["verdict"] == "MLE"
    assert report["tests"][0]["message"].endswith("over the limit of 40 MiB")


def verified(package: Path, tmp_path: Path, extra: dict[str, str] | None = None,
             approaches: str = "") -> subprocess.CompletedProcess:
    """`python -m testcases.verify` on a copy of the package and its solutions, `extra` files added
    (an accepted one with its `approaches` added to editorial.toml)."""
    problems, solutions = tmp_path / "packages", tmp_path / "solutions"
    shutil.copytree(package, problems / package.name)
    with (problems / package.name / "editorial.toml").open("a", encoding="utf-8") as editorial:
        editorial.write(approaches)
    shutil.copytree(SOURCE / "solutions" / package.name, solutions / package.name)
    for name, text in (extra or {}).items():
        (solutions / package.name / name).write_text(text)
    return run("-m", "testcases.verify", "--problems-dir", str(problems), "--solutions-dir", str(solutions))


@pytest.mark.slow  # every bundled file judged
def test_verify_proves_a_memory_limit(rowsums, tmp_path):
    proc = verified(rowsums, tmp_path)
    assert "rowsums  memory_limit_exceeded/padded_to_64_mib.py          MLE       MLE" in proc.stdout, proc.stdout
    assert proc.stdout.rstrip().endswith("verify: rowsums: every check holds.")


@pytest.mark.slow  # every bundled file judged
def test_verify_refuses_an_accepted_solution_near_the_memory_limit(rowsums, tmp_path):
    greedy = ("# Route: the sums, beside a 24 MiB scratch array (over half the 40 MiB limit).\nimport numpy as np\n\n\n"
              "class Solution:\n    def row_sums(self, Z):\n        scratch = np.ones(3 << 20)\n"
              "        return np.asarray(Z, dtype=np.float64).sum(axis=1) + scratch[0] - 1\n")
    proc = verified(rowsums, tmp_path, {"accepted/greedy.py": greedy},
                    '\n[[approach]]\nfile = "greedy.py"\ntime = "O(R·C)"\nmemory = "O(1)"\n'
                    'en = "The sums beside a fixed 24 MiB scratch array."\n'
                    'zh = "行和，外加一个固定 24 MiB 的临时数组。"\n')
    last = (proc.stdout + proc.stderr).rstrip().splitlines()[-1]
    assert proc.returncode == 1
    assert re.fullmatch(r"verify: .*/solutions/rowsums/accepted/greedy\.py: accepted solution's peak memory on test "
                        r"\d{3}-\w+ was 2\d\.\d MiB, more than 1/2 of the 40 MiB memory limit \(raise memory_limit_mb "
                        r"in problem\.toml, or make it use less\)", last), last
