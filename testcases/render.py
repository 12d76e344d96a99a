"""The generated blocks of a statement (spec.md): its constraints and its sample; and the README's
table of problems.

The statement's prose is written by hand; the parts that must agree with data are rendered from
that data, so they cannot drift: the constraints from problem.toml and the sample from the stored
sample test. Only the text between `<!-- BEGIN generated: NAME -->` and `<!-- END generated: NAME -->`
is replaced; everything else in the file stays byte-identical.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from problems import Problem, ProblemError
from problems.package import by_difficulty

BLOCKS = ("constraints", "sample")
LANGUAGES = {"en": "spec.md", "zh": "spec.zh.md"}  # a statement per language, with the same blocks

# The fixed words of the blocks; everything else in them is data, identical in every language.
_WORDS = {
    "en": {
        "sizes": "| Size | Meaning | Range |",
        "derived": "Derived sizes: {}.",
        "rules": "Rules:",
        "args": "| Argument | Shape | Values |",
        "range": "{lo} ≤ each element ≤ {hi}",
        "integers": "int, {lo} ≤ each element ≤ {hi}",
        "mask": "0 or 1, where {hidden} hides; every row of the last axis keeps at least one visible element",
        "int": "int | the size `{size}`",
        "int_range": "int | {lo} ≤ `{name}` ≤ {hi}",
        "real": "float | {lo} ≤ `{name}` ≤ {hi}",
        "result": "The result has shape `{shape}`. An element is accepted when |got − expected| ≤ {abs} "
                  "or |got − expected| ≤ {rel} · |expected|.",
        "accepted_at": "An element is accepted|It is accepted",
        "result_exact": "Every element must equal the expected whole number exactly (an int, or a float holding it).",
        "result_stack": "A tuple or list of {count} arrays of shape `{shape}` is read as their stack "
                        "(`np.asarray(...)`), in order.",
        "result_scalar": "The result is one number: a float (a 0-d array, or an array holding one element, is "
                         "read as that number). It is accepted when |got − expected| ≤ {abs} or |got − expected| ≤ "
                         "{rel} · |expected|.",
        "stream": "`{stream}` is not passed whole: `{method}(x)` is called once per row of it, in order, and x is "
                  "row t as a list of {row} Python floats (whole numbers arrive as floats too, `1.0`). The "
                  "constructor's arguments are decoded from JSON, so their numbers may be `int`.",
        "result_stream": "Each call of `{method}` returns one row, shape `{row}`; the answers of the {steps} calls "
                         "are the rows of the result, `{shape}`. An element is accepted when |got − expected| ≤ "
                         "{abs} or |got − expected| ≤ {rel} · |expected|.",
        "limits": "Time limit: {ms} ms per test. Memory limit: {mb} MiB.",
        "input": "Input (`tests/{name}`):",
        "expected": "Expected output, in full precision:",
        "rounded": "Rounded to 2 decimals for reading: `{}`.",
        "none": "(no sample test)",
    },
    "zh": {
        "sizes": "| 规模 | 含义 | 范围 |",
        "derived": "派生规模：{}。",
        "rules": "规则：",
        "args": "| 参数 | 形状 | 取值 |",
        "range": "{lo} ≤ 每个元素 ≤ {hi}",
        "integers": "整数 (int)，{lo} ≤ 每个元素 ≤ {hi}",
        "mask": "0 或 1，其中 {hidden} 表示屏蔽；最后一维的每一行至少有一个可见元素",
        "int": "整数 | 等于规模 `{size}`",
        "int_range": "整数 | {lo} ≤ `{name}` ≤ {hi}",
        "real": "实数 (float) | {lo} ≤ `{name}` ≤ {hi}",
        "result": "结果的形状为 `{shape}`。当 |got − expected| ≤ {abs} 或 |got − expected| ≤ {rel} · |expected| "
                  "时，该元素被接受。",
        "accepted_at": "当 |got",
        "result_exact": "每个元素必须与期望的整数完全相等（整数，或值为该整数的浮点数）。",
        "result_stack": "返回 {count} 个形状为 `{shape}` 的数组组成的元组或列表时，"
                        "按顺序堆叠读取（`np.asarray(...)`）。",
        "result_scalar": "结果是一个数：一个浮点数（0 维数组或只含一个元素的数组按其中的数读取）。"
                         "当 |got − expected| ≤ {abs} 或 |got − expected| ≤ {rel} · |expected| 时被接受。",
        "stream": "`{stream}` 不会整体传入：按顺序对它的每一行调用一次 `{method}(x)`，x 是第 t 行，一个含 {row} 个 "
                  "Python 浮点数的列表（整数值也以浮点数给出，如 `1.0`）。构造函数的参数由 JSON 解码，其中的数可能是 "
                  "`int`。",
        "result_stream": "每次调用 `{method}` 返回一行，形状为 `{row}`；{steps} 次调用的答案依次组成结果 `{shape}`。当 "
                         "|got − expected| ≤ {abs} 或 |got − expected| ≤ {rel} · |expected| 时，该元素被接受。",
        "limits": "时间限制：每个测试 {ms} ms。内存限制：{mb} MiB。",
        "input": "输入（`tests/{name}`）：",
        "expected": "期望输出（完整精度）：",
        "rounded": "保留两位小数以便阅读：`{}`。",
        "none": "（没有样例测试）",
    },
}


def constraints_block(problem: Problem, lang: str = "en") -> str:
    """Sizes, rules, argument shapes and ranges, output, tolerance and limits, from problem.toml."""
    words = _WORDS[lang]
    zh = lang == "zh"
    lines = [words["sizes"], "| --- | --- | --- |"]
    lines += [f"| `{s.name}` | {(zh and s.description_zh) or s.description} | {s.min} ≤ `{s.name}` ≤ {s.max} |"
              for s in problem.sizes.values() if not s.argument]  # an int argument's range is in its own row
    lines.append("")
    if problem.derived:
        derived = ", ".join(f"`{name} = {expr}`" for name, expr in problem.derived.items())
        lines += [words["derived"].format(derived), ""]
    if problem.rules:
        lines += [words["rules"], ""] + [f"- {(zh and r.text_zh) or r.text} (`{r.expr}`)" for r in problem.rules] + [""]
    lines += [words["args"], "| --- | --- | --- |"]
    for arg in problem.args:
        if arg.is_mask:
            lines.append(f"| `{arg.name}` | `{_shape(arg.shape)}` | {words['mask'].format(hidden=arg.mask_hidden)} |")
        elif arg.is_array:
            lo, hi = arg.range_text() if arg.bounds else arg.range or ("", "")
            kind = words["integers"] if arg.integer else words["range"]
            lines.append(f"| `{arg.name}` | `{_shape(arg.shape)}` | {kind.format(lo=lo, hi=hi)} |")
        elif arg.is_scalar:  # one real number
            assert arg.range is not None  # a scalar's
            ends = [_number(end) for end in arg.range]
            lines.append(f"| `{arg.name}` | {words['real'].format(lo=ends[0], hi=ends[1], name=arg.name)} |")
        elif arg.range is not None:  # an int argument with a range of its own
            lo, hi = arg.range
            lines.append(f"| `{arg.name}` | {words['int_range'].format(lo=lo, hi=hi, name=arg.name)} |")
        else:
            lines.append(f"| `{arg.name}` | {words['int'].format(size=arg.size)} |")
    tolerance = {"abs": _number(problem.abs_tol), "rel": _number(problem.rel_tol)}
    if problem.interactive:  # the stream's rows come one per call, and each call answers one row
        stream = next(arg for arg in problem.args if arg.name == problem.stream)
        row = " · ".join(f"`{size}`" for size in stream.shape[1:])
        lines += ["", words["stream"].format(stream=stream.name, method=problem.method, row=row),
                  "", words["result_stream"].format(method=problem.method, row=_shape(problem.output_shape[1:]),
                                                    steps=stream.shape[0], shape=_shape(problem.output_shape),
                                                    **tolerance)]
    else:
        result = words["result"] if problem.output_shape else words["result_scalar"]
        lines += ["", result.format(shape=_shape(problem.output_shape), **tolerance)]
        if problem.exact:  # no tolerance: say it in words rather than as "<= 0"
            kept = re.split(words["accepted_at"], lines[-1])[0].rstrip()
            lines[-1] = kept + ("" if zh else " ") + words["result_exact"]
        if problem.output_shape and problem.output_shape[0].isdigit():  # several arrays, returned together
            lines[-1] += ("" if zh else " ") + words["result_stack"].format(
                count=problem.output_shape[0], shape=_shape(problem.output_shape[1:]))
    lines += [
        "",
        words["limits"].format(ms=problem.time_limit_ms, mb=problem.memory_limit_mb),
    ]
    return "\n".join(lines)


def sample_block(tests: list[tuple[str, dict]], lang: str = "en") -> str:
    """Each sample test's input and expected output, as stored (full precision), plus a rounding."""
    words = _WORDS[lang]
    parts = []
    for name, data in tests:
        if data.get("category") != "sample":
            continue
        lines = [words["input"].format(name=name), "", "```text"]
        for arg, value in data["input"].items():
            lines.append(_assignment(arg, value))
        lines += ["```", "", words["expected"], "", "```text", _nested(data["expected"]), "```"]
        if not _whole(data["expected"]):  # token ids and other exact outputs need no rounding to read
            lines += ["", words["rounded"].format(_rounded(data["expected"]))]
        parts.append("\n".join(lines))
    return "\n\n".join(parts) or words["none"]


def blocks_for(problem: Problem, tests: list[tuple[str, dict]], lang: str) -> dict[str, str]:
    """Every generated block of one language's statement."""
    return {"constraints": constraints_block(problem, lang), "sample": sample_block(tests, lang)}


def read_blocks(text: str) -> dict[str, str]:
    """The generated blocks a statement carries, by name (what is between its markers)."""
    pattern = re.compile(r"<!-- BEGIN generated: (\w+) -->\n(.*?)\n<!-- END generated: \1 -->", re.DOTALL)
    return {m.group(1): m.group(2) for m in pattern.finditer(text)}


def apply_blocks(text: str, blocks: dict[str, str], where: str) -> str | None:
    """`text` with each marked block replaced; None when it has no markers (nothing to do)."""
    changed = False
    for name, body in blocks.items():
        begin, end = f"<!-- BEGIN generated: {name} -->", f"<!-- END generated: {name} -->"
        if begin not in text and end not in text:
            continue
        pattern = re.compile(re.escape(begin) + r"\n.*?" + re.escape(end), re.DOTALL)
        if text.count(begin) != 1 or text.count(end) != 1 or not pattern.search(text):
            raise ProblemError(f"{where}: the '{name}' block needs one '{begin}' line followed by one '{end}' line")
        text = pattern.sub(lambda _: f"{begin}\n{body}\n{end}", text)  # noqa: B023 (called here, in the loop)
        changed = True
    return text if changed else None


def problems_table(problems: list[Problem], root: Path) -> str:
    """The README's table of problems, easiest first: titles, slug and id, difficulty, tags, method, statements
    (links relative to `root`, the checkout)."""
    lines = ["| problem | id | difficulty | tags | method | statement |", "| --- | --- | --- | --- | --- | --- |"]
    for problem in by_difficulty(problems):
        title = " / ".join([problem.title, *problem.titles.values()])
        method = f"`{problem.method}`"
        if problem.interactive:
            method = f"`__init__`, then `{problem.method}` per row of `{problem.stream}` (interactive)"
        folder = problem.root.relative_to(root).as_posix()
        links = " · ".join(f"[{name}]({folder}/{file})" for name, file in (("English", LANGUAGES["en"]),
                                                                            ("中文", LANGUAGES["zh"])))
        tags = ", ".join(problem.tags) or "-"
        lines.append(f"| {title} | `{problem.slug}` (`{problem.id}`) | {problem.difficulty or '-'} | {tags} | {method} "
                     f"| {links} |")
    return "\n".join(lines)


def _assignment(name: str, value) -> str:
    if isinstance(value, list) and value and isinstance(value[0], list):
        return f"{name} = " + _nested(value, indent=len(name) + 3)
    return f"{name} = {json.dumps(value)}"


def _nested(value: list, indent: int = 0) -> str:
    """A nested list with its innermost lists on one line each, aligned under the first (a number
    as it is: a scalar output)."""
    if not isinstance(value, list):
        return json.dumps(value)
    if not value or not isinstance(value[0], list) or not isinstance(value[0][0] if value[0] else None, list):
        body = (",\n" + " " * (indent + 1)).join(json.dumps(row) for row in value)
        return f"[{body}]"
    inner = [_nested(item, indent + 1) for item in value]
    return "[" + (",\n" + " " * (indent + 1)).join(inner) + "]"


def _whole(value) -> bool:
    if isinstance(value, list):
        return all(_whole(x) for x in value)
    return isinstance(value, int)


def _rounded(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_rounded(x) for x in value) + "]"
    return f"{value:.2f}"


def _shape(shape: tuple[str, ...]) -> str:
    return "(" + ", ".join(shape) + ")"


def _number(x: float) -> str:
    """1e-06 as 1e-6: the way a person writes it."""
    mantissa, _, exponent = f"{x:g}".partition("e")
    return f"{mantissa}e{int(exponent)}" if exponent else mantissa
