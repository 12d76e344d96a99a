"""Practice mode through `python -m judge`: start, list, history, and the recording of judgings
(issue 9's first commands). Each test has its own JUDGE_HOME."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "problems" / "gqa" / "reference.py"
WRONG = ROOT / "solutions" / "gqa" / "wrong_answer" / "no_scale.py"


@pytest.fixture
def home(tmp_path) -> Path:
    return tmp_path / "home"


def judge(home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "judge", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300, env={**os.environ, "JUDGE_HOME": str(home)})


def test_start_writes_a_starter_that_judges_to_runtime_error_and_never_overwrites(tmp_path, home):
    target = tmp_path / "mine.py"
    made = judge(home, "start", "P4497", "--out", str(target))
    assert made.returncode == 0 and made.stdout.startswith(f"wrote {target}: the class and method of gqa")
    source = target.read_text()
    assert "def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):" in source
    assert "W_K: shape (d_model, h_k * d_k), values in [-10, 10]" in source and "problems/gqa/spec.md" in source
    again = judge(home, "start", "gqa", "--out", str(target))
    assert (again.returncode, again.stdout) == (2, "")
    assert again.stderr == (f"error: {target}: already exists; starter files never overwrite (judge it with "
                            f"make judge SOL={target}, or choose another --out)\n")
    assert target.read_text() == source
    judged = judge(home, str(target), "--json")
    report = json.loads(judged.stdout)
    assert (report["verdict"], report["tests"][0]["message"]) == (
        "RE", "NotImplementedError: write grouped_query_attention: see problems/gqa/spec.md")


def test_start_of_an_unknown_problem_is_one_line(home):
    made = judge(home, "start", "nope")
    assert made.returncode == 2 and made.stderr.startswith("error: unknown problem 'nope'")
    assert made.stderr.count("\n") == 1


def _row(listing: str, slug: str) -> list[str]:
    return next(line.split() for line in listing.splitlines() if f" {slug} " in line)


def test_list_follows_the_history(home):
    assert _row(judge(home, "list").stdout, "gqa")[-5:] == ["5", "new", "0", "-", "-"]
    judge(home, str(WRONG), "--tests", "001")
    assert _row(judge(home, "list").stdout, "gqa")[-5:] == ["5", "tried", "1", "-", "WA"]
    judge(home, str(REFERENCE))
    row = _row(judge(home, "list").stdout, "gqa")
    assert row[-6:-3] == ["5", "solved", "2"] and row[-2:] == ["ms", "AC"] and float(row[-3]) > 0
    assert _row(judge(home, "list").stdout, "mha")[-5:] == ["3", "new", "0", "-", "-"]


def test_history_records_every_judging_even_two_at_once(home):
    runs = [subprocess.Popen([sys.executable, "-m", "judge", str(f), "--tests", "001"], cwd=ROOT,
                             stdout=subprocess.DEVNULL, env={**os.environ, "JUDGE_HOME": str(home)})
            for f in (REFERENCE, WRONG)]
    assert sorted(p.wait(timeout=300) for p in runs) == [0, 1]
    rows = json.loads(judge(home, "history", "gqa", "--json").stdout)
    assert sorted((r["verdict"], r["passed"], r["total"], r["first_failing"]) for r in rows) == [
        ("AC", 1, 1, None), ("WA", 0, 1, "001-sample")]
    assert {r["path"] for r in rows} == {str(REFERENCE), str(WRONG)}
    assert all(len(r["sha256"]) == 64 and r["kind"] == "submit" for r in rows)
    assert json.loads(judge(home, "history", "mha", "--json").stdout) == []


@pytest.mark.parametrize("damage", ["unwritable", "corrupt"])
def test_a_broken_history_never_costs_the_verdict(tmp_path, damage):
    if damage == "unwritable":  # a file where the folder should be: fails for root too
        (tmp_path / "file").write_text("")
        home = tmp_path / "file" / "home"
    else:
        home = tmp_path / "home"
        home.mkdir()
        (home / "history.sqlite").write_bytes(b"this is not a database" * 100)
    judged = judge(home, str(WRONG), "--tests", "001")
    assert judged.returncode == 1
    assert "Verdict: WA (Wrong Answer) on test 001-sample" in judged.stdout
    assert judged.stderr.startswith("note: the history could not be written (")
    assert judged.stderr.endswith("); the verdict above stands\n") and judged.stderr.count("\n") == 1
    assert "Traceback" not in judged.stderr


TILE = ROOT / "solutions" / "gqa" / "wrong_answer" / "kv_head_by_tile.py"
CASE = {"X": [[1, 2, 3, 4]], "W_Q": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], "b_Q": [0, 0, 0, 0],
        "W_K": [[1, 0], [0, 1], [1, 0], [0, 1]], "b_K": [0, 0], "W_V": [[1, 0], [0, 0], [0, 1], [0, 0]],
        "b_V": [0, 0], "h_q": 4, "h_k": 2, "W_O": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
        "b_O": [0, 0, 0, 0]}  # the statement's second example: tile and repeat mappings differ


def test_run_on_the_sample_shows_both_outputs_and_counts_as_a_run(home):
    ran = judge(home, "run", str(TILE))
    assert ran.returncode == 0  # h_k = 1 in the sample: the tile mapping cannot be seen there
    assert "Your output next to the reference's:\n  rows 0-1, columns 0-3 of (2, 4)\n" in ran.stdout
    rows = json.loads(judge(home, "history", "--json").stdout)
    assert [(r["kind"], r["verdict"]) for r in rows] == [("run", "AC")]
    assert _row(judge(home, "list").stdout, "gqa")[-5:] == ["5", "new", "0", "-", "-"]  # runs are not attempts


def test_run_on_an_own_input_marks_the_differences(tmp_path, home):
    case = tmp_path / "case.json"
    case.write_text(json.dumps({"input": CASE}))
    ran = judge(home, "run", str(TILE), "--input", str(case))
    assert ran.returncode == 1
    assert ("  rows 0-0, columns 0-3 of (1, 4); 2 element(s) differ, marked *\n"
            "                 col 0        col 1        col 2        col 3\n"
            "  row 0             1            3*           1*           3    yours\n"
            "                    1            1            3            3    reference\n") in ran.stdout
    assert f"rerun it: " in ran.stdout and f"-m judge run {TILE} --input {case}" in ran.stdout
    as_json = json.loads(judge(home, "run", str(REFERENCE), "--input", str(case), "--json").stdout)
    assert (as_json["verdict"], as_json["output"], as_json["expected"]) == ("AC", [[1.0, 1.0, 3.0, 3.0]],
                                                                            [[1.0, 1.0, 3.0, 3.0]])


@pytest.mark.parametrize("change, message", [
    ({"h_k": 3}, "h_q, h_k: rule 'h_k divides h_q' (h_q % h_k == 0) fails for T = 1, d_model = 4, h_q = 4, h_k = 3"),
    ({"X": [[1, 2, 3, 4000]]}, "X[0][3]: 4000 is outside the range [-1000, 1000] of problem.toml"),
])
def test_a_bad_own_input_gets_the_validators_message(tmp_path, home, change, message):
    case = tmp_path / "bad.json"
    case.write_text(json.dumps({"input": {**CASE, **change}}))
    ran = judge(home, "run", str(REFERENCE), "--input", str(case))
    assert (ran.returncode, ran.stdout) == (2, "")
    assert ran.stderr.startswith(f"error: {case}: ") and ran.stderr.count("\n") == 1
    assert message in ran.stderr
