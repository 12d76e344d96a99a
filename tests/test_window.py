"""The eighth problem, sliding-window attention (issue 28), added by following problems/README.md
alone: judged through the real entry point, its int argument with a range shown where a setter
and a user look, and a recipe's missing window named in one line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, run_judge

from problems import load
from problems.bundled import bundled

WINDOW = load("window")


def run(home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, timeout=1800,
                          env={**os.environ, "JUDGE_HOME": str(home)})


@pytest.mark.slow  # every bundled submission, the TLE one to its limit
def test_every_bundled_submission_gets_its_verdict_and_nothing_is_recorded(tmp_path):
    """`python -m judge --bundled --problem window`: accepted (a banded loop, a full mask, a strided
    one, an additive 0/-inf mask), ten wrong answers, a TLE and an RE each get their folder's verdict,
    and the setter's practice history stays empty."""
    home = tmp_path / "home"
    judged = run_judge("--bundled", "--problem", "window", env={"JUDGE_HOME": str(home)})
    count = len(bundled(WINDOW))
    assert judged.returncode == 0, judged.stdout + judged.stderr
    assert judged.stdout.rstrip().endswith(f"{count} of {count} bundled submissions got their expected verdict.")
    assert {e.path.parent.name for e in bundled(WINDOW)} == {"accepted", "wrong_answer", "time_limit_exceeded",
                                                             "run_time_error"}
    assert json.loads(run_judge("history", "--json", env={"JUDGE_HOME": str(home)}).stdout) == []


def test_the_window_argument_shows_its_range(tmp_path):
    """An int argument with a range of its own: in the starter's docstring and in the statements'
    arguments tables, not among the sizes."""
    starter = tmp_path / "window.py"
    made = run_judge("start", "window", "--out", starter, env={"JUDGE_HOME": str(tmp_path / "home")})
    assert made.returncode == 0, made.stderr
    text = starter.read_text()
    assert ("def sliding_window_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, window, W_O, b_O):"
            in text)
    assert "            window: int in [1, 1024]; how many positions each one sees" in text
    assert "            num_heads: int, the size num_heads, in [1, 16]; number of heads" in text
    for name, row in (("spec.md", "| `window` | int | 1 ≤ `window` ≤ 1024 |"),
                      ("spec.zh.md", "| `window` | 整数 | 1 ≤ `window` ≤ 1024 |")):
        statement = (WINDOW.root / name).read_text()
        assert row in statement
        assert "| `window` | " in statement.split("| Argument |" if name == "spec.md" else "| 参数 |")[-1]
        assert statement.count("≤ `window` ≤") == 1  # not in the sizes table as well


@pytest.mark.parametrize("name", ["spec.md", "spec.zh.md"])
def test_both_statements_draw_the_band_as_the_rule_says(name):
    """The worked example (T = 5, w = 2), in English and in Chinese: row t sees t - w < u <= t."""
    T, w = 5, 2
    rows = [f"| {t} | " + " | ".join("✓" if t - w < u <= t else "·" for u in range(T)) + " | "
            + ", ".join(str(u) for u in range(T) if t - w < u <= t) + " |" for t in range(T)]
    lines = (WINDOW.root / name).read_text(encoding="utf-8").splitlines()
    assert [line for line in lines if line.startswith("| ") and ("✓ |" in line or "· |" in line)] == rows


def test_a_recipe_without_the_window_is_one_line(tmp_path):
    folder = tmp_path / "window"
    shutil.copytree(WINDOW.root, folder, ignore=shutil.ignore_patterns("tests"))
    recipes = folder / "recipes.toml"
    old = "sizes = {T = 1, d_model = 1, num_heads = 1, window = 1}"
    assert old in recipes.read_text()
    recipes.write_text(recipes.read_text().replace(old, "sizes = {T = 1, d_model = 1, num_heads = 1}"))
    made = run(tmp_path / "home", "-m", "testcases", str(folder), "--out-dir", str(tmp_path / "out"))
    assert (made.returncode, made.stderr) == (
        2, f"error: {recipes}: test 2: sizes is missing window (give every size: T, d_model, num_heads, window)\n")


def test_a_hint_names_the_band_step(tmp_path):
    """steps.toml at work: a user's copy of the off-by-one band is told step 4, then the bug."""
    wrong = ROOT / "solutions" / "window" / "wrong_answer" / "off_by_one_window_plus_one.py"
    mine = tmp_path / "mine.py"
    mine.write_text(wrong.read_text())
    hinted = json.loads(run_judge(mine, "--hint", "2", "--json", env={"JUDGE_HOME": str(tmp_path / "home")}).stdout)
    assert hinted["verdict"] == "WA"
    assert hinted["hint"]["step"] == "step 4 of the statement (Sliding-window mask)"
    assert hinted["hint"]["matches"] == ["wrong_answer/off_by_one_window_plus_one.py"]


WINDOW_ARG = 'name = "window"\nrange = [1, 1024]\n'
WINDOW_SIZE = '[sizes.window]\nmin = 1\nmax = 1024\ndescription = "window"\n\n[derived]'


@pytest.mark.parametrize("changes, message", [
    ([(WINDOW_ARG, 'name = "window"\nrange = 1024\n')],
     "an int argument's range must be two whole numbers [lo, hi] with lo <= hi, got 1024"),
    ([(WINDOW_ARG, 'name = "window"\nrange = ["1", "1024"]\n')],
     "an int argument's range must be two whole numbers [lo, hi] with lo <= hi, got ['1', '1024']"),
    ([(WINDOW_ARG, 'name = "window"\n')],
     "say what it is: shape and range (an array), range alone (an int argument, e.g. range = [1, 1024]) or size "
     "(an int equal to one of [sizes])"),
    # The typo: the size declared, the argument naming it wrong.
    ([(WINDOW_ARG, 'name = "window"\nsize = "windw"\n'), ("[derived]", WINDOW_SIZE)],
     "size 'windw' is not a size of [sizes] (known: T, d_model, num_heads, window)"),
    ([("[derived]", WINDOW_SIZE)],
     "window is also declared in [sizes]: write size = 'window' (its range is there) or drop [sizes.window]"),
    ([(WINDOW_ARG, WINDOW_ARG + 'size = "T"\n')],
     "give size (an int equal to a size, which has the range) or range (an int argument with its own range), "
     "not both"),
], ids=["range an int", "range of strings", "neither shape nor size nor range", "size typo", "size declared twice",
        "size and range"])
def test_a_mistake_in_the_window_argument_is_one_line(tmp_path, changes, message):
    """Through `python -m testcases` as make testcases calls it: the line blames args[9] (window)
    in problem.toml, never a recipe, and no traceback."""
    folder = tmp_path / "window"
    shutil.copytree(WINDOW.root, folder, ignore=shutil.ignore_patterns("tests"))
    toml = folder / "problem.toml"
    text = toml.read_text()
    for old, new in changes:
        assert old in text
        text = text.replace(old, new, 1)
    toml.write_text(text)
    made = run(tmp_path / "home", "-m", "testcases", str(folder), "--out-dir", str(tmp_path / "out"))
    assert (made.returncode, made.stdout, made.stderr) == (2, "", f"error: {toml}: args[9] (window): {message}\n")


def test_verify_wants_the_window_at_both_ends_of_its_range(tmp_path):
    """Package rule 3 covers an int argument's range: widened to 2048, no stored test reaches it, and
    `python -m testcases.verify` says so before judging anything."""
    package = tmp_path / "packages" / "window"
    shutil.copytree(WINDOW.root, package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "solutions" / "window", tmp_path / "solutions" / "window")
    toml = package / "problem.toml"
    toml.write_text(toml.read_text().replace(WINDOW_ARG, 'name = "window"\nrange = [1, 2048]\n', 1))
    proc = subprocess.run([sys.executable, "-m", "testcases.verify", "--problems-dir", "packages", "--solutions-dir",
                           "solutions", "window"], capture_output=True, text=True, cwd=tmp_path, timeout=1800)
    assert (proc.returncode, proc.stderr) == (
        1, "verify: packages/window/tests: no test has window = 2048 (its max) (package rule: every size reaches its "
           "min and its max in some test (a real scalar both ends of its range))\n")
    assert "reference.py" not in proc.stdout
