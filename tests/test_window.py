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

from problems import load
from problems.bundled import bundled

ROOT = Path(__file__).resolve().parent.parent
WINDOW = load("window")


def run(home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, timeout=1800,
                          env={**os.environ, "JUDGE_HOME": str(home)})


def test_every_bundled_submission_gets_its_verdict_and_nothing_is_recorded(tmp_path):
    """`python -m judge --bundled --problem window`: accepted (a banded loop, a full mask, a strided
    one, an additive 0/-inf mask), ten wrong answers, a TLE and an RE each get their folder's verdict,
    and the setter's practice history stays empty."""
    home = tmp_path / "home"
    judged = run(home, "-m", "judge", "--bundled", "--problem", "window")
    count = len(bundled(WINDOW))
    assert judged.returncode == 0, judged.stdout + judged.stderr
    assert judged.stdout.rstrip().endswith(f"{count} of {count} bundled submissions got their expected verdict.")
    assert {e.path.parent.name for e in bundled(WINDOW)} == {"accepted", "wrong_answer", "time_limit_exceeded",
                                                             "run_time_error"}
    assert json.loads(run(home, "-m", "judge", "history", "--json").stdout) == []


def test_the_window_argument_shows_its_range(tmp_path):
    """An int argument with a range of its own: in the starter's docstring and in the statements'
    arguments tables, not among the sizes."""
    starter = tmp_path / "window.py"
    made = run(tmp_path / "home", "-m", "judge", "start", "window", "--out", str(starter))
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
    hinted = json.loads(run(tmp_path / "home", "-m", "judge", str(mine), "--hint", "2", "--json").stdout)
    assert hinted["verdict"] == "WA"
    assert hinted["hint"]["step"] == "step 4 of the statement (Sliding-window mask)"
    assert hinted["hint"]["matches"] == ["wrong_answer/off_by_one_window_plus_one.py"]
