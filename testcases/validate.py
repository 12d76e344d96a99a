"""The validator: does a stored test obey problem.toml?

Every violation is one line naming the file, the argument and the rule, e.g.
`problems/gqa/tests/004-edge.json: W_K: shape (4, 3) but problem.toml requires (d_model, h_k * d_k) = (4, 2)`.
The generator runs the same checks on each test before writing it, and the judge and pytest can
call validate_test / validate_problem on stored files.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from problems import Arg, Problem, ProblemError
from problems.expr import names
from problems.package import shown
from problems.testfile import test_decoder

NAME = re.compile(r"^(\d{3})-([a-z]+)\.json$")


def validate_test(problem: Problem, path: Path) -> list[str]:
    """Every violation in one stored test file (empty when it is valid)."""
    where = shown(path)
    try:
        data = test_decoder(where).decode(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return [f"{where}: no such test file"]
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return [f"{where}: not valid JSON ({exc})"]
    except ProblemError as exc:  # a key given twice
        return [str(exc)]
    return validate_data(problem, data, where)


def validate_data(problem: Problem, data: Any, where: str) -> list[str]:
    """Every violation in a parsed test object; `where` starts each message."""
    if not isinstance(data, dict) or "input" not in data or "expected" not in data:
        return [f"{where}: a test is one JSON object with keys 'input' and 'expected'"]
    out, dims = validate_input(problem, data["input"])
    for key in ("category", "note"):
        if key in data and not isinstance(data[key], str):
            out.append(f"{key}: must be a string")
    found, message = _shape("expected", data["expected"], len(problem.output_shape))
    out += [message] if message else _elements("expected", data["expected"], found, dims, problem)
    return [f"{where}: {m}" for m in out]


def validate_input(problem: Problem, inputs: Any) -> tuple[list[str], dict[str, int] | None]:
    """The violations of a test's input, and its sizes with the derived ones when they are valid."""
    if not isinstance(inputs, dict):
        return ["input: must be an object of argument name to value"], None
    out = _argument_names(problem, inputs)
    flagged = set()  # arguments already reported: a size read from them is not reported again
    for arg in problem.args:
        if arg.name not in inputs:
            flagged.add(arg.name)
        elif arg.is_scalar:
            message = _scalar_message(arg, inputs[arg.name])
            if message:
                flagged.add(arg.name)
                out.append(message)
        elif not arg.is_array and type(inputs[arg.name]) is not int:
            flagged.add(arg.name)
            what = f"in [{arg.range[0]}, {arg.range[1]}]" if arg.range is not None else f"(the size {arg.size})"
            out.append(f"{arg.name}: must be an integer {what}, got {_brief(inputs[arg.name])}")
    shapes = {}
    for arg in (a for a in problem.args if a.is_array and a.name in inputs):
        shapes[arg.name], message = _shape(arg.name, inputs[arg.name], len(arg.shape))
        if message:
            flagged.add(arg.name)
            out.append(message)
    sizes = problem.sizes_of(inputs)
    size_messages = _size_messages(problem, sizes, flagged)
    out += size_messages
    dims = None if size_messages or len(sizes) < len(problem.sizes) else problem.dims(sizes)
    for arg in problem.args:
        if arg.name in shapes and arg.name not in flagged:
            out += _elements(arg.name, inputs[arg.name], shapes[arg.name], dims, problem, arg)
    return out, dims


def _scalar_message(arg: Arg, value: Any) -> str | None:
    """A real scalar is one finite number (an int or a float, not a list or a bool) in its range."""
    assert arg.range is not None  # a scalar's
    lo, hi = arg.range
    if type(value) not in (int, float) or not math.isfinite(value) or not lo <= value <= hi:
        return f"{arg.name}: must be a real number in [{lo!r}, {hi!r}], got {_brief(value)}"
    return None


def validate_problem(problem: Problem, tests_dir: Path | None = None) -> list[str]:
    """Every violation in a problem's stored tests, plus their naming: NNN-<category>.json from 001."""
    folder = tests_dir or problem.tests_dir
    files = sorted(folder.glob("*.json"))
    if not files:
        return [f"{shown(folder)}: no tests"]
    out = []
    for number, path in enumerate(files, 1):
        match = NAME.match(path.name)
        if not match:
            out.append(f"{shown(path)}: name must be NNN-<category>.json")
        elif int(match.group(1)) != number:
            out.append(f"{shown(path)}: numbered {match.group(1)} but it is test {number:03d} (no gaps)")
        problems = validate_test(problem, path)
        out += problems
        if match and not problems:
            category = json.loads(path.read_text(encoding="utf-8")).get("category", match.group(2))
            if category != match.group(2):
                out.append(f"{shown(path)}: category: '{category}' but the file name says '{match.group(2)}'")
    return out


def _argument_names(problem: Problem, inputs: dict) -> list[str]:
    wanted, got = list(problem.arg_names), list(inputs)
    out = [f"input: missing argument '{n}'" for n in wanted if n not in inputs]
    out += [f"input: unknown argument '{n}' ({problem.method} takes {', '.join(wanted)})"
            for n in got if n not in wanted]
    if not out and got != wanted:
        out.append(f"input: arguments must be in signature order {', '.join(wanted)}, got {', '.join(got)}")
    return out


def _size_messages(problem: Problem, sizes: dict[str, int], flagged: set[str]) -> list[str]:
    """Size range and rule violations, each prefixed by the argument(s) the sizes were read from.

    A size that could not be read is blamed on its argument, unless that one is already reported.
    """
    origin: dict[str, str] = {}
    for arg in problem.args:
        for expr in ((arg.size,) if arg.size else arg.shape):
            origin.setdefault(expr, arg.name)
    out = []
    for message in problem.size_violations(sizes):
        rule = next((r for r in problem.rules if f"'{r.text}'" in message), None)
        used = names(rule.expr) if rule else {message.split()[0]}
        args = sorted({origin[n] for n in used if n in origin}, key=problem.arg_names.index)
        if rule is None and message.split()[0] not in sizes:
            if not args:  # no argument has an axis of this size alone: a defect of problem.toml
                out.append(f"input: no argument shows the size {message.split()[0]} (problem.toml must use it "
                           "alone as an axis of some argument, or derive it)")
            elif args[0] not in flagged:
                out.append(f"{args[0]}: cannot read the size {message.split()[0]} from it")
        else:
            out.append(f"{', '.join(args)}: {message}")
    return out


def _elements(name: str, value: Any, found: tuple[int, ...], dims: dict[str, int] | None,
              problem: Problem, arg: Arg | None = None) -> list[str]:
    """Shape against problem.toml, then element type, finiteness and range of one nested list."""
    shape = arg.shape if arg else problem.output_shape
    out = []
    if dims is not None:
        required = problem.shape_of(arg, dims) if arg else problem.output_shape_for(dims)
        if found != required:
            out.append(f"{name}: shape {_tuple(found)} but problem.toml requires {_tuple(shape)} = {_tuple(required)}")
    leaves = value if shape else [value]  # a scalar output (output_shape = []) is one number
    for _ in range(len(shape) - 1):
        leaves = [x for row in leaves for x in row]
    bad_type = [i for i, x in enumerate(leaves) if type(x) not in (int, float)]
    if bad_type:
        i = bad_type[0]
        return out + [f"{name}{_index(i, found)}: must be a number, got {_brief(leaves[i])}{_more(bad_type, name)}"]
    bad = [i for i, x in enumerate(leaves) if not math.isfinite(x)]
    if bad:
        i = bad[0]
        out.append(f"{name}{_index(i, found)}: {leaves[i]} is not a finite number{_more(bad, name)}")
    elif arg is not None and (dims is not None or arg.range is not None):  # a size-expression range needs sizes
        lo, hi = problem.range_of(arg, dims or {})
        outside = [i for i, x in enumerate(leaves) if not lo <= x <= hi]
        if outside:
            i = outside[0]
            out.append(f"{name}{_index(i, found)}: {leaves[i]!r} is outside the range [{lo}, {hi}] of "
                       f"problem.toml{_more(outside, name)}")
        elif arg.mask_hidden is not None:  # a mask
            out += _mask_messages(name, leaves, found, arg.mask_hidden)
        elif arg.integer:
            out += _whole_messages(name, leaves, found)
    return out


def _whole_messages(name: str, leaves: list, found: tuple[int, ...]) -> list[str]:
    """An integer array (integer = true) holds whole numbers written as integers: 3, not 3.0."""
    fractional = [i for i, x in enumerate(leaves) if type(x) is not int]
    if fractional:
        i = fractional[0]
        return [f"{name}{_index(i, found)}: {leaves[i]!r} is not an integer (an integer array holds whole numbers)"
                f"{_more(fractional, name)}"]
    return []


def _mask_messages(name: str, leaves: list, found: tuple[int, ...], hidden: int) -> list[str]:
    """A mask holds the integers 0 and 1 only, and no row along its last axis hides every element."""
    fractional = [i for i, x in enumerate(leaves) if type(x) is not int]
    if fractional:
        i = fractional[0]
        return [f"{name}{_index(i, found)}: {leaves[i]!r} is not 0 or 1 (a mask holds integers)"
                f"{_more(fractional, name)}"]
    width = found[-1] if found else 0
    if width == 0:
        return []
    blind = [r for r in range(len(leaves) // width) if all(x == hidden for x in leaves[r * width:(r + 1) * width])]
    if not blind:
        return []
    where = _index(blind[0] * width, found)[: -len("[0]")] if len(found) > 1 else ""
    more = f" (and {len(blind) - 1} more rows)" if len(blind) > 1 else ""
    return [f"{name}{where}: every element is {hidden}, which hides it: each row of the last axis needs at least "
            f"one visible element{more}"]


def _shape(name: str, value: Any, ndim: int) -> tuple[tuple[int, ...], str | None]:
    """The shape of a rectangular nested list of depth `ndim`, or a message saying where it is not."""
    shape: list[int] = []
    level = [("", value)]
    for depth in range(ndim):
        lengths = set()
        for index, item in level:
            if not isinstance(item, list):
                kind = f"a {ndim}-dimensional list" if depth == 0 else "a list"
                return (), f"{name}{index}: must be {kind}, got {_brief(item)}"
            lengths.add(len(item))
        if len(lengths) > 1:
            first = level[0]
            odd = next((i, x) for i, x in level if len(x) != len(first[1]))
            return (), (f"{name}: ragged: {name}{odd[0]} has {len(odd[1])} elements but "
                        f"{name}{first[0]} has {len(first[1])}")
        shape.append(lengths.pop() if lengths else 0)
        if depth < ndim - 1:
            level = [(f"{index}[{i}]", x) for index, item in level for i, x in enumerate(item)]
    return tuple(shape), None


def _index(flat: int, shape: tuple[int, ...]) -> str:
    out = []
    for size in reversed(shape):
        out.append(flat % size)
        flat //= size
    return "".join(f"[{i}]" for i in reversed(out))


def _more(hits: list[int], name: str) -> str:
    return f" (and {len(hits) - 1} more in {name})" if len(hits) > 1 else ""


def _tuple(items: tuple) -> str:
    return "(" + ", ".join(map(str, items)) + ("," if len(items) == 1 else "") + ")"


def _brief(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."
