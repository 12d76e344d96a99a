"""Graded hints on a Wrong Answer, from data: the problem's bundled wrong answers are run (in the
sandbox, like any file) on the test the user's file failed, and the user's output is compared
with each under the problem's checker. A match names the statement step where the output goes
wrong (level 1) and the bug (level 2); no match says so, since a guess would mislead. An output
holding NaN or inf is first told what that means (coach/nonfinite.py); a NaN names no step, so a
match must rest on a wrong finite value the two outputs share.

Each problem's wrong answers declare their step in solutions/<slug>/wrong_answer/steps.toml; the
steps' titles come from the numbered steps of its spec.md.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from coach.nonfinite import diagnosis
from grading.checker import compare
from grading.judgement import Report
from grading.session import Options, judge_file
from problems import Problem, TestCase, read_test
from problems.bundled import SOLUTIONS
from problems.package import read_toml
from problems.statement import statement_steps

# Every sentence a hint says, in English and Chinese; `lang` chooses ("en" on the terminal unless --lang zh).
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Hint (level {level}): {text}",
        "step": "step {n} of the statement", "titled": " ({title})", "section": "the statement's {name} section",
        "unnamed": "an unnamed step", "or": " or ", "or_bug": "; or ",
        "need_wa": "hints need a Wrong Answer with a readable output",
        "stored_only": "hints work on the stored tests only",
        "nonfinite": "{odd}. No bundled mistake shares a wrong finite value with your output on this test, so no "
                     "step is named: check where the first NaN or inf appears in your code on this test's input "
                     "(np.isfinite after each step)",
        "own": "no bundled mistake gives your output on this test: the bug is one of your own. "
               "Compare your output with the reference's: python -m judge run FILE",
        "finite": "{odd}. Your finite values are those of a bundled mistake: ",
        "wrong_at": "your output goes wrong at {step}", "one_bug": ": {bug}",
        "bugs": "; on this test your output is that of {n} different mistakes: {bugs}",
        "level2": " (--hint 2 names the bug)",
        "not_wa": "hints explain wrong answers (WA) only; {where}",
        "AC": "this file is accepted: there is no wrong answer to explain",
        "RE": "a Runtime Error is explained by its traceback, in the report",
        "CE": "a Compile Error is explained by its message, in the report",
        "TLE": "a Time Limit Exceeded is about speed: see the statement's constraints and the time limit",
        "MLE": "a Memory Limit Exceeded is about the memory your arrays take",
        "OLE": "an Output Limit Exceeded comes from printing too much",
        "other": "this judging's verdict is {verdict}",
        "failed": "no hint could be had ({why})",
    },
    "zh": {
        "title": "提示（第 {level} 级）：{text}",
        "step": "题面第 {n} 步", "titled": "（{title}）", "section": "题面的“{name}”一节",
        "unnamed": "某个未命名的步骤", "or": " 或 ", "or_bug": "；或",
        "need_wa": "提示只针对能读出输出的答案错误（WA）",
        "stored_only": "提示只适用于题目自带的测试点",
        "nonfinite": "{odd}。没有哪个已知错误与你在这个测试点上的输出有相同的错误有限值，所以不指出步骤："
                     "请在这个测试点的输入上检查你的代码中第一个 NaN 或 inf 出现在哪里（每一步之后用 np.isfinite）",
        "own": "没有哪个已知错误会在这个测试点上给出你的输出：这是你自己的错误。"
               "请对比你的输出与参考输出：python -m judge run FILE",
        "finite": "{odd}。你的有限值与一个已知错误的一致：",
        "wrong_at": "你的输出从{step}开始出错", "one_bug": "：{bug}",
        "bugs": "；在这个测试点上，你的输出与 {n} 个不同错误的输出相同：{bugs}",
        "level2": "（--hint 2 指出错误所在）",
        "not_wa": "提示只解释答案错误（WA）；{where}",
        "AC": "这份代码已通过：没有需要解释的错误答案",
        "RE": "运行错误（RE）由报告中的调用栈说明",
        "CE": "编译错误（CE）由报告中的错误信息说明",
        "TLE": "超出时间限制（TLE）关乎速度：请看题面的约束和时间限制",
        "MLE": "超出内存限制（MLE）关乎你的数组占用的内存",
        "OLE": "超出输出限制（OLE）是因为打印了太多内容",
        "other": "这次评测的结果是 {verdict}",
        "failed": "无法给出提示（{why}）",
    },
}


def words(lang: str) -> dict[str, str]:
    """The hint's sentences in `lang` (English for any other)."""
    return WORDS.get(lang, WORDS["en"])


@dataclass
class Hint:
    """A hint, a section of the report (grading/judgement.py's Section) under the key "hint".
    kind: "step" (a bundled mistake gives the same output: `step` names where, and at level 2
    `matches` and `bugs` name the mistakes), "own" (none does), "nonfinite" (none does, and the
    output holds NaN or inf: `nonfinite` says where and `text` what it means), "not_wa" (the
    verdict is not a Wrong Answer, which is all hints explain), "none" (no hint can be had: `text`
    says why). `nonfinite` is None unless the output holds NaN or inf."""

    level: int
    kind: str
    text: str
    step: str | None = None
    matches: list[str] | None = None
    bugs: list[str] | None = None
    nonfinite: dict[str, Any] | None = None
    lang: str = "en"

    key = "hint"

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "kind": self.kind, "step": self.step, "matches": self.matches,
                "bugs": self.bugs, "nonfinite": self.nonfinite, "text": self.text}

    def to_text(self) -> str:
        return words(self.lang)["title"].format(level=self.level, text=self.text)


def _step_text(problem: Problem, step, lang: str = "en") -> str:
    say = words(lang)
    if isinstance(step, int):
        title = statement_steps(problem, lang).get(step)
        return say["step"].format(n=step) + (say["titled"].format(title=title) if title else "")
    return say["section"].format(name=step)


def _bug(path: Path) -> str:
    first = path.read_text(encoding="utf-8").splitlines()[0] if path.stat().st_size else ""
    return re.sub(r"^#\s*(WRONG:\s*)?", "", first).strip().rstrip(".") or path.stem.replace("_", " ")


def hint(report: Report, level: int, solutions: Path = SOLUTIONS, lang: str = "en") -> Hint:
    """The hint for a report judged with keep_output (its kinds: Hint), its sentences in `lang`."""
    problem, failure, say = report.problem, report.first_failure, words(lang)
    if report.verdict != "WA":
        return not_a_wrong_answer(report, level, lang)
    if problem is None or failure is None or failure.verdict != "WA" or failure.got is None:
        return Hint(level, "none", say["need_wa"], lang=lang)
    case_path = problem.tests_dir / f"{failure.name}.json"
    if not case_path.is_file():
        return Hint(level, "none", say["stored_only"], lang=lang)
    case = read_test(problem, case_path)
    folder = solutions / problem.slug / "wrong_answer"
    index_path = folder / "steps.toml"
    index = read_toml(index_path, "each problem's wrong answers name their step there") if index_path.is_file() else {}
    odd = diagnosis(failure.got, problem.interactive, failure.step)
    matches = matching(problem, case, failure.got, sorted(folder.glob("*.py")))
    if not matches and odd is not None:
        return Hint(level, "nonfinite", say["nonfinite"].format(odd=odd["text"]), nonfinite=odd, lang=lang)
    if not matches:
        return Hint(level, "own", say["own"], lang=lang)
    steps = list(dict.fromkeys(_step_text(problem, index[m.name], lang) if m.name in index else say["unnamed"]
                               for m in matches))
    bugs = [_bug(m) for m in matches]
    step = say["or"].join(steps)
    text = (say["finite"].format(odd=odd["text"]) if odd else "") + say["wrong_at"].format(step=step)
    if level >= 2:
        text += say["one_bug"].format(bug=bugs[0]) if len(bugs) == 1 else say["bugs"].format(
            n=len(bugs), bugs=say["or_bug"].join(bugs))
    else:
        text += say["level2"]
    return Hint(level, "step", text, step=step, matches=[f"wrong_answer/{m.name}" for m in matches] if level >= 2
                else None, bugs=bugs if level >= 2 else None, nonfinite=odd, lang=lang)


def not_a_wrong_answer(report: Report, level: int, lang: str = "en") -> Hint:
    """Hints explain wrong answers; any other verdict is told so plainly, with where to look."""
    verdict, say = str(report.verdict), words(lang)
    where = say[verdict] if verdict in ("AC", "RE", "CE", "TLE", "MLE", "OLE") else say["other"].format(verdict=verdict)
    return Hint(level, "not_wa", say["not_wa"].format(where=where), lang=lang)


def matching(problem: Problem, case: TestCase, got: np.ndarray, files: list[Path]) -> list[Path]:
    """The bundled files that make the same mistake as `got` on `case` (see same_mistake)."""
    def output_of(path: Path) -> np.ndarray | None:
        result = judge_file(path, problem, Options(lambda p: [case], keep_output=True))
        return result.tests[0].got if result.tests else None

    with ThreadPoolExecutor(max_workers=2) as pool:
        outputs = list(pool.map(output_of, files))
    return [path for path, theirs in zip(files, outputs)
            if theirs is not None and same_mistake(got, theirs, expected_for(problem, case, theirs), problem)]


def expected_for(problem: Problem, case: TestCase, got: np.ndarray) -> np.ndarray:
    """The expected output `got` is checked against: an interactive run's answers stop at its
    first wrong step, so theirs are the first steps of the expected ones."""
    expected = np.asarray(case.expected, dtype=np.float64)
    return expected[:len(got)] if problem.interactive and got.ndim == expected.ndim else expected


def same_mistake(got: np.ndarray, theirs: np.ndarray, expected: np.ndarray, problem: Problem) -> bool:
    """Whether the bundled output `theirs` shows the user's mistake in `got`: the checker cannot tell
    them apart (the same shape; NaN, inf and -inf in the same places; the finite elements within
    tolerance), and they share something wrong that a NaN does not hide: the shape, or a finite
    element outside the tolerance of `expected`. Outputs that agree only where they are NaN or inf
    name nothing: an overflowing exp, a fully masked row and 0 / 0 all give the same NaN."""
    if got.shape != theirs.shape:
        return False
    finite = np.isfinite(got)
    if not (np.array_equal(finite, np.isfinite(theirs)) and np.array_equal(np.isnan(got), np.isnan(theirs))
            and np.array_equal(got[np.isinf(got)], theirs[np.isinf(got)])):
        return False
    if not compare(got[finite], theirs[finite], problem.abs_tol, problem.rel_tol).ok:
        return False
    if theirs.shape != expected.shape:
        return True  # a wrong shape, the same as the user's: shared and seen
    return not compare(theirs[finite], expected[finite], problem.abs_tol, problem.rel_tol).ok
