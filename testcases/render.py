"""The generated blocks of a statement (spec.md): its constraints and its sample.

The statement's prose is written by hand; the parts that must agree with data are rendered from
that data, so they cannot drift: the constraints from problem.toml and the sample from the stored
sample test. Only the text between `<!-- BEGIN generated: NAME -->` and `<!-- END generated: NAME -->`
is replaced; everything else in the file stays byte-identical.
"""

from __future__ import annotations

import json
import re

from problems import Problem, ProblemError

BLOCKS = ("constraints", "sample")


def constraints_block(problem: Problem) -> str:
    """Sizes, rules, argument shapes and ranges, output, tolerance and limits, from problem.toml."""
    lines = ["| Size | Meaning | Range |", "| --- | --- | --- |"]
    lines += [f"| `{s.name}` | {s.description} | {s.min} ≤ `{s.name}` ≤ {s.max} |" for s in problem.sizes.values()]
    lines.append("")
    if problem.derived:
        derived = ", ".join(f"`{name} = {expr}`" for name, expr in problem.derived.items())
        lines += [f"Derived sizes: {derived}.", ""]
    if problem.rules:
        lines += ["Rules:", ""] + [f"- {r.text} (`{r.expr}`)" for r in problem.rules] + [""]
    lines += ["| Argument | Shape | Values |", "| --- | --- | --- |"]
    for arg in problem.args:
        if arg.is_array:
            lo, hi = arg.range
            lines.append(f"| `{arg.name}` | `{_shape(arg.shape)}` | {lo} ≤ each element ≤ {hi} |")
        else:
            lines.append(f"| `{arg.name}` | int | the size `{arg.size}` |")
    lines += [
        "",
        f"The result has shape `{_shape(problem.output_shape)}`. An element is accepted when "
        f"|got − expected| ≤ {_number(problem.abs_tol)} or |got − expected| ≤ {_number(problem.rel_tol)} · |expected|.",
        "",
        f"Time limit: {problem.time_limit_ms} ms per test. Memory limit: {problem.memory_limit_mb} MiB.",
    ]
    return "\n".join(lines)


def sample_block(tests: list[tuple[str, dict]]) -> str:
    """Each sample test's input and expected output, as stored (full precision), plus a rounding."""
    parts = []
    for name, data in tests:
        if data.get("category") != "sample":
            continue
        lines = [f"Input (`tests/{name}`):", "", "```text"]
        for arg, value in data["input"].items():
            lines.append(_assignment(arg, value))
        lines += ["```", "", "Expected output, in full precision:", "", "```text",
                  _matrix(data["expected"]), "```", "",
                  f"Rounded to 2 decimals for reading: `{_rounded(data['expected'])}`."]
        parts.append("\n".join(lines))
    return "\n\n".join(parts) or "(no sample test)"


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
        text = pattern.sub(lambda _: f"{begin}\n{body}\n{end}", text)
        changed = True
    return text if changed else None


def _assignment(name: str, value) -> str:
    if isinstance(value, list) and value and isinstance(value[0], list):
        return f"{name} = " + _matrix(value, indent=len(name) + 3)
    return f"{name} = {json.dumps(value)}"


def _matrix(rows: list, indent: int = 0) -> str:
    body = (",\n" + " " * (indent + 1)).join(json.dumps(row) for row in rows)
    return f"[{body}]"


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
