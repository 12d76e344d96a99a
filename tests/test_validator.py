"""The validator: every stored test obeys problem.toml, and each kind of defect has its message."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from problems import all_problems, load
from testcases import validate_problem, validate_test

ROOT = Path(__file__).resolve().parent.parent
PROBLEMS = all_problems()


@pytest.mark.slow
@pytest.mark.parametrize("problem", PROBLEMS, ids=lambda p: p.slug)
def test_every_stored_test_is_valid(problem):
    assert problem.test_files()
    assert validate_problem(problem) == []


@pytest.mark.slow  # every stored test of every problem
def test_validate_command_accepts_the_stored_tests():
    run = subprocess.run([sys.executable, "-m", "testcases", "validate"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [f"{p.slug}: {len(p.test_files())} tests, all valid" for p in PROBLEMS]


def sample(slug: str = "gqa") -> dict:
    return json.loads((load(slug).tests_dir / "001-sample.json").read_text(encoding="utf-8"))


def broken(tmp_path: Path, data, slug: str = "gqa") -> list[str]:
    """The validator's messages for `data` written as a test file, with the path left out."""
    path = tmp_path / "004-edge.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return [m.removeprefix(f"{path}: ") for m in validate_test(load(slug), path)]


def edit(change, slug: str = "gqa") -> dict:
    data = copy.deepcopy(sample(slug))
    change(data)
    return data


GQA_ARGS = "X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O"


@pytest.mark.parametrize(("change", "messages"), [
    (lambda d: d["input"].pop("b_O"), ["input: missing argument 'b_O'"]),
    (lambda d: d["input"].update(b_X=[0]),
     [f"input: unknown argument 'b_X' (grouped_query_attention takes {GQA_ARGS})"]),
    (lambda d: d.update(input={k: d["input"][k] for k in reversed(d["input"])}),
     [f"input: arguments must be in signature order {GQA_ARGS}, got {', '.join(reversed(GQA_ARGS.split(', ')))}"]),
    (lambda d: d["input"].update(h_q=2.0), ["h_q: must be an integer (the size h_q), got 2.0"]),
    (lambda d: d["input"].update(h_k=True), ["h_k: must be an integer (the size h_k), got true"]),
    (lambda d: d["input"].update(h_q=32), ["h_q: h_q = 32 is outside [2, 16]"]),
    (lambda d: d["input"].update(h_q=3),
     ["X, h_q: rule 'h_q divides d_model' (d_model % h_q == 0) fails for T = 2, d_model = 4, h_q = 3, h_k = 1"]),
    (lambda d: d["input"].update(h_k=2),
     ["h_q, h_k: rule 'h_k < h_q' (h_k < h_q) fails for T = 2, d_model = 4, h_q = 2, h_k = 2"]),
    (lambda d: [row.append(0) for row in d["input"]["W_K"]],
     ["W_K: shape (4, 3) but problem.toml requires (d_model, h_k * d_k) = (4, 2)"]),
    (lambda d: d["input"]["b_K"].append(0), ["b_K: shape (3,) but problem.toml requires (h_k * d_k,) = (2,)"]),
    (lambda d: d["input"]["X"][1].pop(), ["X: ragged: X[1] has 3 elements but X[0] has 4"]),
    (lambda d: d["input"].update(X=[]), ["X: T = 0 is outside [1, 512]"]),
    (lambda d: d["input"].update(X="X"), ['X: must be a 2-dimensional list, got "X"']),  # T unread: no 2nd message
    (lambda d: d["input"].update(b_Q=[[0, 0, 0, 0]]),
     ["b_Q: shape (1,) but problem.toml requires (d_model,) = (4,)", "b_Q[0]: must be a number, got [0, 0, 0, 0]"]),
    (lambda d: d["input"].update(W_Q=5), ["W_Q: must be a 2-dimensional list, got 5"]),
    (lambda d: d["input"]["W_Q"].__setitem__(1, 7), ["W_Q[1]: must be a list, got 7"]),
    (lambda d: d["input"]["W_Q"][0].__setitem__(1, "1"), ['W_Q[0][1]: must be a number, got "1"']),
    (lambda d: d["input"]["W_V"][3].__setitem__(0, None), ["W_V[3][0]: must be a number, got null"]),
    (lambda d: d["input"]["b_V"].__setitem__(1, False), ["b_V[1]: must be a number, got false"]),
    (lambda d: d["input"]["X"][0].__setitem__(1, 1001),
     ["X[0][1]: 1001 is outside the range [-1000, 1000] of problem.toml"]),
    (lambda d: d["input"]["W_O"].__setitem__(3, [-10.5, 0, 11, 0]),
     ["W_O[3][0]: -10.5 is outside the range [-10, 10] of problem.toml (and 1 more in W_O)"]),
    (lambda d: d["input"]["b_Q"].__setitem__(0, 5.000001),
     ["b_Q[0]: 5.000001 is outside the range [-5, 5] of problem.toml"]),
    (lambda d: d.update(expected=[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]),
     ["expected: shape (2, 3) but problem.toml requires (T, d_model) = (2, 4)"]),
    (lambda d: d.update(expected=None), ["expected: must be a 2-dimensional list, got null"]),
    (lambda d: d["expected"][1].__setitem__(2, "2.2"), ['expected[1][2]: must be a number, got "2.2"']),
    (lambda d: d.update(category=3), ["category: must be a string"]),
])
def test_each_defect_has_its_message(tmp_path, change, messages):
    assert broken(tmp_path, edit(change)) == messages


def test_not_finite_numbers(tmp_path):
    data = sample()
    text = json.dumps(data).replace('"expected": [[2.0', '"expected": [[NaN', 1)
    text = text.replace('"X": [[1', '"X": [[Infinity', 1)
    assert broken(tmp_path, text) == ["X[0][0]: inf is not a finite number",
                                      "expected[0][0]: nan is not a finite number"]


@pytest.mark.parametrize(("text", "message"), [
    ("{", "not valid JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))"),
    ("[1, 2]", "a test is one JSON object with keys 'input' and 'expected'"),
    ('{"input": {}}', "a test is one JSON object with keys 'input' and 'expected'"),
    ('{"input": [], "expected": []}', "input: must be an object of argument name to value"),
    ('{"input": {}, "expected": [], "expected": [[1.0]]}', "the key 'expected' appears twice"),
])
def test_malformed_files(tmp_path, text, message):
    assert broken(tmp_path, text) == [message]


@pytest.mark.parametrize(("slug", "required"), [
    ("gqa", "(d_model, h_k * d_k) = (4, 2)"),
    ("mha", "(d_model, d_model) = (4, 4)"),
    ("mqa", "(d_model, d_k) = (4, 2)"),
])
def test_shape_rules_come_from_each_problem(tmp_path, slug, required):
    data = edit(lambda d: [row.append(0) for row in d["input"]["W_K"]], slug)
    got = len(data["input"]["W_K"][0])
    assert broken(tmp_path, data, slug) == [f"W_K: shape (4, {got}) but problem.toml requires {required}"]


def test_mqa_heads_must_divide_d_model(tmp_path):
    data = edit(lambda d: d["input"].update(num_heads=3), "mqa")
    assert broken(tmp_path, data, "mqa") == [
        "X, num_heads: rule 'num_heads divides d_model' (d_model % num_heads == 0) fails for T = 3, d_model = 4, "
        "num_heads = 3"]


def test_problem_level_naming(tmp_path):
    problem = load("gqa")
    good = (problem.tests_dir / "001-sample.json").read_text()
    (tmp_path / "001-sample.json").write_text(good)
    (tmp_path / "003-edge.json").write_text(good)
    (tmp_path / "sample.json").write_text(good)
    assert validate_problem(problem, tmp_path) == [
        f"{tmp_path / '003-edge.json'}: numbered 003 but it is test 002 (no gaps)",
        f"{tmp_path / '003-edge.json'}: category: 'sample' but the file name says 'edge'",
        f"{tmp_path / 'sample.json'}: name must be NNN-<category>.json",
    ]
    (tmp_path / "003-edge.json").rename(tmp_path / "002-edge.json")
    (tmp_path / "sample.json").unlink()
    assert validate_problem(problem, tmp_path) == [
        f"{tmp_path / '002-edge.json'}: category: 'sample' but the file name says 'edge'"]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert validate_problem(problem, empty) == [f"{empty}: no tests"]


def test_validate_command_reports_and_fails(tmp_path):
    path = tmp_path / "004-edge.json"
    path.write_text(json.dumps(edit(lambda d: [row.append(0) for row in d["input"]["W_K"]])))
    run = subprocess.run([sys.executable, "-m", "testcases", "validate", "P4497", str(path)], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 1
    assert run.stdout == "gqa: 1 tests, 1 violations\n"
    assert run.stderr == f"{path}: W_K: shape (4, 3) but problem.toml requires (d_model, h_k * d_k) = (4, 2)\n"
