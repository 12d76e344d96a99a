"""Practice mode through `python -m judge`: start, list, history, and the recording of judgings
(issue 9's first commands). Each test has its own JUDGE_HOME."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import ROOT, judge_command, judge_env, run_judge

from coach.hints import same_mistake
from coach.nonfinite import MEANING
from grading.checker import compare
from judge import routes
from problems import all_problems, load

REFERENCE = ROOT / "problems" / "gqa" / "reference.py"
WRONG = ROOT / "solutions" / "gqa" / "wrong_answer" / "no_scale.py"


@pytest.fixture
def home(tmp_path) -> Path:
    return tmp_path / "home"


def practice_copy(tmp_path: Path, bundled: Path) -> Path:
    """A bundled file copied where a user's own file would be: judgings of files under solutions/
    are never recorded, a user's are."""
    mine = tmp_path / "practice" / bundled.name
    mine.parent.mkdir(parents=True, exist_ok=True)
    mine.write_text(bundled.read_text())
    return mine


def judge(home: Path, *args: str) -> subprocess.CompletedProcess:
    return run_judge(*args, env={"JUDGE_HOME": str(home)})


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


@pytest.mark.parametrize("slug, lines", [  # lines of the docstring, indentation aside
    ("sampling", ["(np.asarray(x, dtype=np.float64) for values), a float as a Python float, an int as a Python int:",
                  "Return: shape (B), integers: a list or a numpy array."]),
    ("speculative", ["(np.asarray(x, dtype=np.float64) for values, np.asarray(x, dtype=np.int64) for ints), a float as",
                     "draft_tokens: shape (K), ints in [0, V - 1]; the K tokens the draft model proposed, in order",
                     "Return: shape (K + 1), integers: a list or a numpy array."]),
    ("cross_entropy", ["Return: one number (a float, or a numpy array holding one element), full precision."]),
    ("attention_backward", [
        "Return: 3 arrays of numbers of shape (h, T, d), in the order the statement's Output gives: a",
        "tuple or list of them, or one numpy array of shape (3, h, T, d), full precision."]),
    ("gqa_decode", ["Return: row t of the output, shape (d_model), numbers: a list or a numpy array, full precision."]),
    ("masked", ["(np.asarray(x, dtype=np.float64) for values, np.asarray(x, dtype=np.int64) for ints and masks),",
                "Return: shape (B, T_q, d_model), numbers: a list of lists or a numpy array, full precision."]),
])
def test_a_starter_says_how_each_argument_arrives_and_what_to_return(tmp_path, home, slug, lines):
    target = tmp_path / f"{slug}.py"
    assert judge(home, "start", slug, "--out", str(target)).returncode == 0
    source = [line.strip() for line in target.read_text().splitlines()]
    assert [line for line in lines if line not in source] == []


@pytest.mark.slow  # a start and a run per problem
@pytest.mark.parametrize("slug", [p.slug for p in all_problems()])
def test_every_starter_runs_to_its_not_implemented_error(tmp_path, home, slug):
    target = tmp_path / f"{slug}.py"
    assert judge(home, "start", slug, "--out", str(target)).returncode == 0
    ran = json.loads(judge(home, "run", str(target), "--json").stdout)
    first = "__init__" if load(slug).interactive else load(slug).method
    assert (ran["verdict"], ran["test"]["message"].removesuffix(" while constructing Solution()")) == (
        "RE", f"NotImplementedError: write {first}: see problems/{slug}/spec.md")


def test_help_lists_every_command(home):
    """`python -m judge --help` names each subcommand __main__ routes, with its one line."""
    shown = judge(home, "--help")
    assert shown.returncode == 0
    listed = shown.stdout.split("commands (python -m judge COMMAND --help for each):\n")[1].splitlines()
    commands = ["start", "run", "stress", "list", "history", "editorial", "serve", "serve --class", "class", "worker"]
    assert [line[:17].strip() for line in listed] == commands == list(routes.listed())  # one table routes them
    for command in commands:
        usage = judge(home, *command.split(), *(["DIR"] if command == "serve --class" else []), "--help").stdout
        assert usage.startswith(f"usage: python -m judge {command.removesuffix(' --class')} "), usage
        assert ("--class FOLDER" in usage) == (command == "serve --class"), usage


def test_start_of_an_unknown_problem_is_one_line(home):
    made = judge(home, "start", "nope")
    assert made.returncode == 2 and made.stderr.startswith("error: unknown problem 'nope'")
    assert made.stderr.count("\n") == 1


def _row(listing: str, slug: str) -> list[str]:
    return next(line.split() for line in listing.splitlines() if f" {slug} " in line)


def test_list_follows_the_history(tmp_path, home):
    assert _row(judge(home, "list").stdout, "gqa")[-5:] == ["5", "new", "0", "-", "-"]
    judge(home, str(practice_copy(tmp_path, WRONG)), "--tests", "001")
    assert _row(judge(home, "list").stdout, "gqa")[-5:] == ["5", "tried", "1", "-", "WA"]
    judge(home, str(REFERENCE))
    row = _row(judge(home, "list").stdout, "gqa")
    assert row[-6:-3] == ["5", "solved", "2"] and row[-2:] == ["ms", "AC"] and float(row[-3]) > 0
    assert _row(judge(home, "list").stdout, "mha")[-5:] == ["3", "new", "0", "-", "-"]


def test_history_records_every_judging_even_two_at_once(tmp_path, home):
    wrong = practice_copy(tmp_path, WRONG)
    runs = [subprocess.Popen(judge_command(f, "--tests", "001"), cwd=ROOT, stdout=subprocess.DEVNULL,
                             env=judge_env(env={"JUDGE_HOME": str(home)}))
            for f in (REFERENCE, wrong)]
    assert sorted(p.wait(timeout=1800) for p in runs) == [0, 1]
    rows = json.loads(judge(home, "history", "gqa", "--json").stdout)
    assert sorted((r["verdict"], r["passed"], r["total"], r["first_failing"]) for r in rows) == [
        ("AC", 1, 1, None), ("WA", 0, 1, "001-sample")]
    assert {r["path"] for r in rows} == {str(REFERENCE), str(wrong)}
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
    judged = judge(home, str(practice_copy(tmp_path, WRONG)), "--tests", "001")
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


def test_run_on_the_sample_shows_both_outputs_and_counts_as_a_run(tmp_path, home):
    ran = judge(home, "run", str(practice_copy(tmp_path, TILE)))
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
    assert "rerun it: " in ran.stdout and f"-m judge run {TILE} --problem gqa --input {case}" in ran.stdout
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


TIED = {"logits": [[0, 0]], "temperature": 1.0, "top_k": 0, "top_p": 1.0, "u": [0.5]}  # u on the CDF's step


def test_an_own_input_with_no_single_right_answer_is_refused_naming_the_section(tmp_path, home):
    slug = "sampling"
    case = tmp_path / "tied.json"
    case.write_text(json.dumps({"input": TIED}))
    reference = ROOT / "problems" / slug / "reference.py"
    ran = judge(home, "run", str(reference), "--input", str(case))
    message = (f"{case}: refused: {slug} has no single right answer on this input: it comes too close to a boundary "
               "where rounding decides (the statement's section \"Checking\" says how close an input may come)")
    assert (ran.returncode, ran.stdout, ran.stderr) == (2, "", f"error: {message}\n")
    assert "## Checking\n" in (ROOT / "problems" / slug / "spec.md").read_text()
    as_json = judge(home, "run", str(reference), "--input", str(case), "--json")
    assert (as_json.returncode, json.loads(as_json.stdout)) == (2, {"error": message})


@pytest.mark.parametrize("gap, refused", [(1e-12, True), (0.0, False), (1e-6, False)])
def test_moe_refuses_router_logits_nearly_tied_at_the_cut_but_not_equal_or_apart(tmp_path, home, gap, refused):
    """Two experts, top_k = 1: the logits 0.5 and 0.5 + gap. A gap within 1e-9 lets rounding pick the
    expert; an exact tie is the tie rule's, and 1e-6 is clearly apart."""
    case = tmp_path / "router.json"
    case.write_text(json.dumps({"input": {"X": [[1]], "W_g": [[0.5, 0.5 + gap]], "W1": [[[1]], [[-1]]],
                                          "W2": [[[1]], [[1]]], "W3": [[[1]], [[1]]], "top_k": 1}}))
    ran = judge(home, "run", str(ROOT / "problems" / "moe" / "reference.py"), "--input", str(case), "--no-record")
    if refused:
        assert (ran.returncode, ran.stdout, ran.stderr) == (2, "", (
            f"error: {case}: refused: moe has no single right answer on this input: it comes too close to a "
            "boundary where rounding decides (the statement's section \"Checking\" says how close an input may "
            "come)\n"))
    else:
        assert (ran.returncode, ran.stderr) == (0, "") and "Accepted" in ran.stdout


@pytest.mark.slow
@pytest.mark.parametrize("content, message", [
    (b"[" * 100_000 + b"]" * 100_000, "arrays and objects nested 100000 deep, over the limit of 32"),
    (b'{"input": {"X": "' + b"x" * (9 << 20) + b'"}}', "over the limit of 8 MiB for a case"),
    (b'{"input": [1, 2]}', 'a case is one JSON object {"input": {argument: value, ...}}'),
])
def test_an_own_input_is_bounded_before_it_is_parsed(tmp_path, home, content, message):
    case = tmp_path / "hostile.json"
    case.write_bytes(content)
    ran = judge(home, "run", str(REFERENCE), "--input", str(case))
    assert (ran.returncode, ran.stdout, ran.stderr) == (2, "", f"error: {case}: {message}\n")
    as_json = judge(home, "run", str(REFERENCE), "--input", str(case), "--json")
    assert (as_json.returncode, json.loads(as_json.stdout)) == (2, {"error": f"{case}: {message}"})


@pytest.mark.slow  # a hint judges every bundled wrong file
@pytest.mark.parametrize("slug, name, step", [
    ("gqa", "kv_head_by_tile.py", "step 3 of the statement (Which key/value head a query head reads)"),
    ("gqa", "no_scale.py", "step 4 of the statement (Attention, per query head)"),
    ("mha", "forgot_b_Q.py", "step 1 of the statement (Projections)"),
    ("mqa", "softmax_over_heads.py", "step 3 of the statement (Attention, per query head)"),
])
def test_hint_names_the_step_then_the_bug(home, slug, name, step):
    wrong = ROOT / "solutions" / slug / "wrong_answer" / name
    level1 = json.loads(judge(home, str(wrong), "--hint", "--json").stdout)
    assert level1["verdict"] == "WA" and level1["hint"] == {
        "level": 1, "kind": "step", "step": step, "matches": None, "bugs": None, "nonfinite": None,
        "text": f"your output goes wrong at {step} (--hint 2 names the bug)"}
    level2_json = json.loads(judge(home, str(wrong), "--hint", "2", "--json").stdout)["hint"]
    assert level2_json["matches"] == [f"wrong_answer/{name}"] and len(level2_json["bugs"]) == 1
    level2 = judge(home, str(wrong), "--hint", "2")
    first_line = wrong.read_text().splitlines()[0].removeprefix("# WRONG: ").rstrip(".")
    assert f"Hint (level 2): your output goes wrong at {step}: {first_line}" in level2.stdout


@pytest.mark.slow  # a hint judges every bundled wrong file
def test_the_hint_in_chinese_names_the_chinese_statements_step(home):
    level1 = json.loads(judge(home, str(WRONG), "--hint", "--lang", "zh", "--json").stdout)["hint"]
    assert level1["step"] == "题面第 4 步（逐个查询头计算注意力）"
    assert level1["text"] == "你的输出从题面第 4 步（逐个查询头计算注意力）开始出错（--hint 2 指出错误所在）"
    shown = judge(home, str(WRONG), "--hint", "2", "--lang", "zh").stdout
    first_line = WRONG.read_text().splitlines()[0].removeprefix("# WRONG: ").rstrip(".")
    assert f"提示（第 2 级）：你的输出从题面第 4 步（逐个查询头计算注意力）开始出错：{first_line}" in shown
    accepted = json.loads(judge(home, str(REFERENCE), "--tests", "001", "--hint", "--lang", "zh", "--json").stdout)
    assert accepted["hint"]["text"] == "提示只解释答案错误（WA）；这份代码已通过：没有需要解释的错误答案"


@pytest.mark.slow
def test_a_bug_no_bundled_file_has_gets_an_honest_no(tmp_path, home):
    mine = tmp_path / "off_by_a_little.py"
    mine.write_text(REFERENCE.read_text().replace("return (H @ f(W_O) + f(b_O)).tolist()",
                                                  "return (H @ f(W_O) + f(b_O) + 1e-3).tolist()"))
    report = json.loads(judge(home, str(mine), "--hint", "2", "--json").stdout)
    assert report["verdict"] == "WA" and {k: report["hint"][k] for k in ("level", "kind", "step", "matches")} == {
        "level": 2, "kind": "own", "step": None, "matches": None}
    text = judge(home, str(mine), "--hint").stdout
    assert "Hint (level 1): no bundled mistake gives your output on this test: the bug is one of your own." in text


CAUSAL_NO_MAX = """import numpy as np


class Solution:
    def causal_self_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, num_heads, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)
        X = f(X)
        T, d_model = X.shape
        d_k = d_model // num_heads
        Q = (X @ f(W_Q) + f(b_Q)).reshape(T, num_heads, d_k).transpose(1, 0, 2)
        K = (X @ f(W_K) + f(b_K)).reshape(T, num_heads, d_k).transpose(1, 0, 2)
        V = (X @ f(W_V) + f(b_V)).reshape(T, num_heads, d_k).transpose(1, 0, 2)
        S = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)
        S = np.where(np.tril(np.ones((T, T), dtype=bool)), S, -np.inf)
        E = np.exp(S)
        A = E / E.sum(axis=2, keepdims=True)
        return ((A @ V).transpose(1, 0, 2).reshape(T, d_model)) @ f(W_O) + f(b_O)
"""


@pytest.mark.slow  # two hints, each judging every bundled wrong file of causal
def test_a_nan_from_an_unshifted_softmax_is_explained_and_blames_no_step(tmp_path, home):
    """Issue 33: the right mask (np.tril) and a softmax without the max subtracted give NaN on
    002-edge, as the bundled strict mask does there; both hint levels used to blame the mask."""
    mine = tmp_path / "causal_no_max.py"
    mine.write_text(CAUSAL_NO_MAX)
    text = ("your output holds NaN: 1 of its 1 elements is not finite, the first at row 0, column 0 (nan). "
            f"{MEANING}. No bundled mistake shares a wrong finite value with your output on this test, so no "
            "step is named: check where the first NaN or inf appears in your code on this test's input "
            "(np.isfinite after each step)")
    nonfinite = {"index": [0, 0], "position": "row 0, column 0", "value": "nan", "count": 1, "elements": 1,
                 "text": text.split(". No bundled")[0]}
    for level in ("1", "2"):
        report = json.loads(judge(home, str(mine), "--hint", level, "--json").stdout)
        assert (report["verdict"], report["first_failure"]) == ("WA", "002-edge")
        assert report["hint"] == {"level": int(level), "kind": "nonfinite", "step": None, "matches": None,
                                  "bugs": None, "nonfinite": nonfinite, "text": text}
        shown = judge(home, str(mine), "--hint", level).stdout
        assert f"Hint (level {level}): {text}\n" in shown
        assert "goes wrong at" not in shown and "strict mask" not in shown


@pytest.mark.slow  # a hint judges every bundled wrong file of causal
def test_a_nan_beside_a_shared_wrong_value_names_the_mistake(tmp_path, home):
    """The strict mask leaves row 0 of the sample NaN and rows 1 and 2 finite but wrong: the wrong
    finite values, not the NaN, name step 4."""
    mine = practice_copy(tmp_path, ROOT / "solutions" / "causal" / "wrong_answer" / "strict_mask_hides_self.py")
    hint = json.loads(judge(home, str(mine), "--hint", "2", "--json").stdout)["hint"]
    assert (hint["kind"], hint["step"], hint["matches"]) == (
        "step", "step 4 of the statement (Causal mask)", ["wrong_answer/strict_mask_hides_self.py"])
    assert hint["nonfinite"]["position"] == "row 0, column 0" and hint["nonfinite"]["count"] == 4
    assert hint["text"] == (f"{hint['nonfinite']['text']}. Your finite values are those of a bundled mistake: your "
                            "output goes wrong at step 4 of the statement (Causal mask): strict mask (u < t kept): "
                            "position t cannot see itself, row 0 has no key at all and its softmax is 0/0 = NaN")


NAN, INF = np.nan, np.inf


@pytest.mark.parametrize("got, interactive, step, start", [
    ([[1.0, INF], [NAN, 2.0]], False, None,
     "your output holds NaN and inf: 2 of its 4 elements are not finite, the first at row 0, column 1 (inf)."),
    ([[1.0, 2.0], [3.0, -INF]], True, 1,  # an interactive run's answers, one a step
     "your output holds inf: 1 of its 4 elements is not finite, the first at step t = 1, element 1 (-inf)."),
    ([1.0, NAN], True, 4,  # answers of different shapes: the failing step's alone
     "your output holds NaN: 1 of its 2 elements is not finite, the first at step t = 4, element 1 (nan)."),
    ([[[1.0], [NAN]]], False, None,
     "your output holds NaN: 1 of its 2 elements is not finite, the first at element [0][1][0] (nan)."),
])
def test_a_non_finite_output_is_told_where_and_what_makes_one(got, interactive, step, start):
    from coach.nonfinite import diagnosis

    told = diagnosis(np.array(got), interactive, step)
    assert told is not None and told["text"] == f"{start} {MEANING}"
    assert diagnosis(np.ones((2, 3))) is None


@pytest.mark.parametrize("got, theirs, expected, same", [
    ([[NAN]], [[NAN]], [[1.0]], False),  # NaN where the other is NaN: no evidence of which step made it
    ([[NAN, 2.0]], [[NAN, 2.0]], [[1.0, 2.0]], False),  # and finite elements both right: none either
    ([[NAN, 3.0]], [[NAN, 3.0]], [[1.0, 2.0]], True),  # a wrong finite value both share
    ([[NAN, 3.0]], [[2.0, 3.0]], [[1.0, 2.0]], False),  # NaN where the other is finite
    ([[INF, 3.0]], [[-INF, 3.0]], [[1.0, 2.0]], False),  # inf against -inf
    ([[INF, 3.0]], [[NAN, 3.0]], [[1.0, 2.0]], False),  # inf against NaN
    ([[INF, 3.0]], [[INF, 3.0]], [[1.0, 2.0]], True),
    ([[1.5, 3.0]], [[1.5, 3.0]], [[1.0, 2.0]], True),  # finite outputs: the usual match
    ([[1.5, 3.0]], [[1.5, 3.1]], [[1.0, 2.0]], False),
    ([[NAN], [NAN]], [[NAN], [NAN]], [[1.0, 2.0]], True),  # the same wrong shape: shared and seen
])
def test_a_match_rests_on_a_shared_mistake_a_nan_does_not_hide(got, theirs, expected, same):
    problem = load("causal")
    assert same_mistake(np.array(got), np.array(theirs), np.array(expected), problem) is same


@pytest.mark.slow
@pytest.mark.parametrize("slug", [p.slug for p in all_problems()])
def test_every_bundled_wrong_answer_is_named_by_its_own_hint(slug):
    """Each wrong answer must be among the files its own hint names, on the test it first fails
    (two mistakes can coincide on a test: then both are named), unless it is wrong there only where
    it is NaN or inf: then no file is named. Every wrong answer is judged once to find its first
    failure, and once on all those tests: the hint's matching rule does the rest."""
    from concurrent.futures import ThreadPoolExecutor

    from coach.hints import expected_for
    from grading.session import Options, given, judge_file
    from problems import read_test
    from problems.bundled import bundled

    problem = load(slug)
    wrong = sorted(e.path for e in bundled(problem) if e.expected == "WA")
    with ThreadPoolExecutor(max_workers=2) as pool:
        first = dict(zip(wrong, pool.map(lambda p: judge_file(p, problem, Options(keep_output=True)).first_failure,
                                         wrong)))
        tests = sorted({problem.tests_dir / f"{f.name}.json" for f in first.values()})
        outputs = dict(zip(wrong, pool.map(
            lambda p: {t.name: t.got
                       for t in judge_file(p, problem, Options(given(tests), run_all=True, keep_output=True)).tests},
            wrong)))
    for path, failure in first.items():
        case = read_test(problem, problem.tests_dir / f"{failure.name}.json")
        named = [other for other in wrong if (theirs := outputs[other].get(failure.name)) is not None
                 and same_mistake(failure.got, theirs, expected_for(problem, case, theirs), problem)]
        expected = expected_for(problem, case, failure.got)
        finite = np.isfinite(failure.got)
        wrong_where_finite = failure.got.shape != expected.shape or not compare(
            failure.got[finite], expected[finite], problem.abs_tol, problem.rel_tol).ok
        if wrong_where_finite:
            assert path in named, (path.name, failure.name)
        else:  # wrong only where it is NaN or inf, which names no mistake: its own hint blames no step
            assert named == [], (path.name, failure.name, named)


@pytest.mark.slow
def test_editorial_waits_for_an_ac_unless_forced(tmp_path, home):
    gated = judge(home, "editorial", "gqa")
    assert gated.returncode == 1 and gated.stdout.startswith("gqa: not solved yet (0 attempts, no AC")
    assert "accepted/" not in gated.stdout
    judge(home, str(practice_copy(tmp_path, WRONG)), "--tests", "001")
    assert judge(home, "editorial", "gqa").stdout.startswith("gqa: not solved yet (1 attempt, no AC")
    forced = judge(home, "editorial", "gqa", "--force")
    assert forced.returncode == 0 and "==== solutions/gqa/accepted/repeat_kv_batched.py\ntime " in forced.stdout
    judge(home, str(REFERENCE), "--tests", "001")  # an AC on one test is not a solved problem
    assert judge(home, "editorial", "gqa").stdout.startswith(
        "gqa: not solved yet (2 attempts, no AC on the full test set).")
    judge(home, str(REFERENCE))
    shown = judge(home, "editorial", "gqa")
    assert shown.returncode == 0 and shown.stdout.startswith("Grouped Query Attention (P4497): 5 accepted solutions")


def test_the_editorial_prints_the_idea_and_each_approach_in_the_language_asked(home):
    english = judge(home, "editorial", "gqa", "--force")
    assert english.returncode == 0, english.stderr
    lines = english.stdout.splitlines()
    assert lines[2] == "The idea: The h_q query heads fall into h_k consecutive groups, and every query head of a group"
    first = lines.index("==== solutions/gqa/accepted/loop_heads_column_slices.py")  # the simplest first
    assert first < lines.index("==== solutions/gqa/accepted/repeat_kv_batched.py")
    assert lines[first + 1] == "time O(T·d_model² + h_q·T²·d_k) · memory O(T² + T·d_model)"
    assert lines[first + 2].startswith("A Python loop over the h_q query heads: head i takes its own d_k columns")
    assert lines[first + 7] == ("# Accepted: numpy loop over query heads on column slices of Q, K, V; K/V head "
                                "chosen as i // group_size.")
    chinese = judge(home, "editorial", "gqa", "--force", "--lang", "zh").stdout.splitlines()
    assert chinese[2].startswith("思路：h_q 个查询头按顺序分成 h_k 组")
    assert chinese[chinese.index(lines[first]) + 1] == "时间 O(T·d_model² + h_q·T²·d_k) · 内存 O(T² + T·d_model)"
    wrong = judge(home, "editorial", "gqa", "--force", "--lang", "fr")
    assert wrong.returncode == 2 and "argument --lang: invalid choice: 'fr'" in wrong.stderr


@pytest.mark.slow  # nine judge commands, five of them judgings or runs
def test_bundled_files_and_no_record_leave_the_history_alone(tmp_path, home):
    """Issue 28: a setter judging solutions/ (or anything with --no-record) keeps a practice history
    of their own: the problem stays new and its editorial locked."""
    accepted = ROOT / "solutions" / "gqa" / "accepted" / "repeat_kv_batched.py"
    assert judge(home, str(accepted), "--tests", "001").returncode == 0
    assert judge(home, "run", str(TILE)).returncode == 0
    mine = practice_copy(tmp_path, accepted)
    assert judge(home, str(mine), "--tests", "001", "--no-record").returncode == 0
    assert judge(home, "run", str(mine), "--no-record").returncode == 0
    assert json.loads(judge(home, "history", "--json").stdout) == []
    assert _row(judge(home, "list").stdout, "gqa")[-5:] == ["5", "new", "0", "-", "-"]
    assert judge(home, "editorial", "gqa").returncode == 1
    assert judge(home, str(mine), "--tests", "001").returncode == 0  # the same file, recorded
    assert [r["path"] for r in json.loads(judge(home, "history", "--json").stdout)] == [str(mine)]


@pytest.mark.slow
def test_an_ac_shows_the_references_speed_measured_once_per_machine(home):
    first = json.loads(judge(home, str(REFERENCE), "--tests", "001", "--json").stdout)
    speed = first["speed"]
    assert speed["test"] == "001-sample" and speed["reference_ms"] > 0 and speed["yours_ms"] > 0
    cache = json.loads((home / "reference_times.json").read_text())
    assert list(cache.values()) == [speed["reference_ms"]]
    again = json.loads(judge(home, str(REFERENCE), "--tests", "001", "--json").stdout)
    assert again["speed"]["reference_ms"] == speed["reference_ms"]  # from the cache, not measured again
    text = judge(home, str(REFERENCE), "--tests", "001").stdout
    assert "Speed: your slowest test, 001-sample, took " in text and "the reference's the fastest of 3" in text


@pytest.mark.slow
def test_stress_finds_and_shrinks_the_tile_mapping_and_nothing_in_a_correct_file(tmp_path, home):
    saved = tmp_path / "counter.json"
    found = judge(home, "stress", str(TILE), "--seed", "1", "--out", str(saved), "--json")
    report = json.loads(found.stdout)
    assert found.returncode == 1 and report["found"] is True
    sizes = report["sizes"]
    assert sizes["T"] == 1 and sizes["h_k"] >= 2 and sizes["d_model"] <= 4 and sizes["h_q"] <= 4, sizes
    assert json.loads(saved.read_text()) == report["case"]
    again = json.loads(judge(home, "stress", str(TILE), "--seed", "1", "--out", str(saved), "--json").stdout)
    assert again == report  # the seed reproduces the run
    rerun = judge(home, "run", str(TILE), "--input", str(saved))
    assert rerun.returncode == 1 and "element(s) differ, marked *" in rerun.stdout
    clean = json.loads(judge(home, "stress", str(REFERENCE), "--n", "60", "--json").stdout)
    assert (clean["found"], clean["tried"], clean["case"]) == (False, 60, None)


@pytest.mark.slow  # a hint (every bundled wrong file judged), then every test judged
def test_solved_needs_an_ac_on_the_full_test_set_and_hints_are_not_attempts(tmp_path, home):
    judge(home, str(REFERENCE), "--tests", "001")
    assert _row(judge(home, "list").stdout, "gqa")[-5:] == ["5", "tried", "1", "-", "AC"]
    judge(home, str(practice_copy(tmp_path, WRONG)), "--hint")
    assert _row(judge(home, "list").stdout, "gqa")[-5:] == ["5", "tried", "1", "-", "AC"]  # a hint is no attempt
    kinds = [(r["kind"], r["verdict"], r["full"]) for r in json.loads(judge(home, "history", "--json").stdout)]
    assert kinds == [("submit", "AC", False), ("hint", "WA", True)]
    judge(home, str(REFERENCE))
    assert _row(judge(home, "list").stdout, "gqa")[-6:-3] == ["5", "solved", "2"]


def test_best_on_largest_is_the_largest_test_not_the_last():
    from coach.history import largest_test
    from problems import load

    assert largest_test(load("gqa_decode").test_files()) == "020-large"  # the last is 023-soft
    assert largest_test(load("mla").test_files()) == "024-large"  # 025-large is smaller
    assert largest_test([]) is None


def test_a_hint_on_another_verdict_says_hints_explain_wrong_answers(tmp_path, home):
    starter = tmp_path / "starter.py"
    judge(home, "start", "gqa", "--out", str(starter))
    text = judge(home, str(starter), "--hint").stdout
    assert ("Hint (level 1): hints explain wrong answers (WA) only; a Runtime Error is explained by its "
            "traceback") in text
    accepted = json.loads(judge(home, str(REFERENCE), "--tests", "001", "--hint", "--json").stdout)
    assert accepted["hint"]["kind"] == "not_wa" and "this file is accepted" in accepted["hint"]["text"]


PRINTS = """import numpy as np


class Solution:
    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        print("shapes", np.shape(X), "<b>not html</b>")
        print("on stderr", file=__import__("sys").stderr)
        return helper(X)


def helper(X):
    raise ValueError("oops")
"""


def test_the_json_carries_each_tests_output_traceback_and_first_mismatch(tmp_path, home):
    mine = tmp_path / "prints.py"
    mine.write_text(PRINTS)
    first = json.loads(judge(home, str(mine), "--json").stdout)["tests"][0]
    assert first["verdict"] == "RE"  # stdout and stderr as one stream (stdout's buffer goes last)
    assert sorted(first["output"].splitlines()) == ["on stderr", "shapes (2, 4) <b>not html</b>"]
    assert first["output_size"] == len(first["output"]) and first["note"]
    assert first["traceback"].endswith('line 12, in helper\n    raise ValueError("oops")\n')
    assert first["traceback"].startswith('  File "prints.py", line 8') and first["message"] == "ValueError: oops"
    assert first["sizes"] == {"T": 2, "d_model": 4, "h_q": 2, "h_k": 1, "d_k": 2, "group_size": 2}
    ran = json.loads(judge(home, "run", str(mine), "--json").stdout)
    assert ran["test"]["output"] == first["output"] and ran["test"]["traceback"] == first["traceback"]
    wrong = json.loads(judge(home, str(WRONG), "--json").stdout)
    failing = wrong["tests"][-1]
    assert wrong["first_failure"] == failing["name"] and failing["verdict"] == "WA"
    mismatch = failing["mismatch"]
    assert mismatch["position"] == "row {}, column {}".format(*mismatch["index"])
    assert abs(mismatch["got"] - mismatch["expected"]) == pytest.approx(mismatch["error"])
    assert mismatch["error"] > mismatch["allowed"] and 0 < mismatch["differ"] <= mismatch["elements"]


def test_start_outside_the_checkout_advises_a_command_that_works_there(tmp_path, home):
    from coach.cli import PRACTICE

    assert PRACTICE == ROOT / "practice"  # the checkout's practice/, wherever the command runs
    made = subprocess.run(judge_command("start", "gqa", "--out", "mine.py"), capture_output=True, text=True,
                          cwd=tmp_path, env=judge_env(env={"JUDGE_HOME": str(home)}))
    assert made.returncode == 0 and (tmp_path / "mine.py").is_file()
    assert made.stdout.splitlines()[-1].endswith(f"then: {sys.executable} -m judge {tmp_path / 'mine.py'}")
    assert "make " not in made.stdout
