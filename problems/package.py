"""A problem package: problem.toml read once into a typed object every engine shares.

The statement, the generator, the validator and the judge all take sizes, ranges, limits and
tolerances from here, so a constraint is written in exactly one file (problem.toml).
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from problems.expr import ExprError, evaluate, names

ROOT = Path(__file__).resolve().parent


class ProblemError(Exception):
    """A user-caused error about a problem package; its message is one line naming file and rule."""


@dataclass(frozen=True)
class Size:
    name: str
    min: int
    max: int
    description: str = ""
    description_zh: str = ""
    # Declared by an int argument's own range ([[args]] with range and no shape): recipes set it
    # among the sizes, the statement shows it among the arguments.
    argument: bool = False


@dataclass(frozen=True)
class Rule:
    expr: str
    text: str
    text_zh: str = ""


@dataclass(frozen=True)
class Arg:
    """One positional argument of the Solution method.

    Either an array (`shape` and `range` set), a real scalar (`shape` empty and `range` set: one
    float, such as eps), or an int (`size` set: the size it equals, and with
    `range` set too, an int argument with a range of its own, which is a size of its own name). An
    array with `mask_hidden` set is a 0/1 mask over its last axis: that value hides an element, and
    every row along the last axis keeps at least one element visible (a softmax over no key is
    undefined). An array with `integer` set holds whole numbers only (token ids, block tables); its
    range ends (`bounds`) may be size expressions ("V - 1"), and then `range` is None: use
    Problem.range_of for a test's ends.
    """

    name: str
    description: str = ""
    shape: tuple[str, ...] = ()
    range: tuple[float, float] | None = None
    group: str = ""
    size: str | None = None
    mask_hidden: int | None = None
    integer: bool = False
    bounds: tuple[int | str, ...] = ()  # an integer array's range as written: whole numbers or size expressions

    def range_text(self) -> tuple[str, str]:
        """The range's ends as the statement and the starter show them ("0", "V - 1")."""
        ends = self.bounds or self.range or ("", "")
        return str(ends[0]), str(ends[1])

    @property
    def is_array(self) -> bool:
        return self.size is None and bool(self.shape)

    @property
    def is_scalar(self) -> bool:
        """One real number in `range` (shape = [] in problem.toml), passed as a Python float."""
        return self.size is None and not self.shape

    @property
    def is_mask(self) -> bool:
        return self.mask_hidden is not None

    @property
    def is_int_range(self) -> bool:
        """An int argument with a range of its own (window in [1, 1024]), not another size's value."""
        return self.size is not None and self.range is not None


@dataclass(frozen=True)
class Problem:
    slug: str
    id: str
    title: str
    method: str
    args: tuple[Arg, ...]
    output_shape: tuple[str, ...]
    time_limit_ms: int
    memory_limit_mb: int
    abs_tol: float
    rel_tol: float
    sizes: dict[str, Size]
    derived: dict[str, str]
    rules: tuple[Rule, ...]
    root: Path
    titles: dict[str, str] = field(default_factory=dict)
    difficulty: int | None = None  # 1 (easiest) to 10, shown by `python -m judge list`
    tags: tuple[str, ...] = ()  # short lower-case topics (attention, decoding): listed and filtered by
    # An interactive problem: Solution(*constructor arguments) once per test, then `method` called
    # with one row of the `stream` argument at a time; row t of the output is what call t returns.
    kind: str = "function"
    constructor: tuple[str, ...] = ()
    stream: str | None = None
    # `make verify`'s time margins where a package needs its own (None: verify's defaults): the
    # slowest test of an accepted solution, and of the reference, within time limit / divisor.
    accepted_divisor: int | None = None
    reference_divisor: int | None = None
    attention: bool = False  # [verify] attention = true: the attention package rules apply too
    # The statement's section (its English heading) saying where an input has no single right answer
    # and the reference returns NaN: `judge run --input` names it when it refuses such an input.
    no_single_answer: str | None = None

    @property
    def exact(self) -> bool:
        """abs = rel = 0 in [tolerance]: an output of whole numbers (token ids) that must match exactly."""
        return self.abs_tol == 0 and self.rel_tol == 0

    @property
    def interactive(self) -> bool:
        return self.kind == "interactive"

    @property
    def toml_path(self) -> Path:
        return self.root / "problem.toml"

    @property
    def tests_dir(self) -> Path:
        return self.root / "tests"

    @property
    def reference_path(self) -> Path:
        return self.root / "reference.py"

    @property
    def spec_path(self) -> Path:
        return self.root / "spec.md"

    @property
    def recipes_path(self) -> Path:
        return self.root / "recipes.toml"

    @property
    def arg_names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.args)

    def test_files(self) -> list[Path]:
        """Stored tests, small to large: their NNN- prefix orders them."""
        return sorted(self.tests_dir.glob("*.json"))

    def dims(self, sizes: dict[str, int]) -> dict[str, int]:
        """The sizes with the derived ones (d_k, ...) added; assumes the rules hold."""
        env = dict(sizes)
        for name, expr in self.derived.items():
            env[name] = int(evaluate(expr, env))
        return env

    def size_violations(self, sizes: dict[str, int]) -> list[str]:
        """Every way `sizes` breaks the constraints, each as a short sentence (empty when valid)."""
        problems: list[str] = []
        for name, spec in self.sizes.items():
            value = sizes.get(name)
            if type(value) is not int:
                problems.append(f"{name} must be an integer, got {value!r}")
            elif not spec.min <= value <= spec.max:
                problems.append(f"{name} = {value} is outside [{spec.min}, {spec.max}]")
        if problems:
            return problems
        try:
            env = self.dims(sizes)
        except ExprError:  # a derived size divides by zero: the rules below say which
            env = dict(sizes)
        for rule in self.rules:
            try:
                ok = evaluate(rule.expr, env)
            except ExprError:
                ok = False
            if not ok:
                values = ", ".join(f"{n} = {sizes[n]}" for n in self.sizes)
                problems.append(f"rule '{rule.text}' ({rule.expr}) fails for {values}")
        return problems

    def sizes_of(self, inputs: dict) -> dict[str, int]:
        """The sizes a test's input shows: int arguments, and array axes named by one size.

        Best effort on raw (possibly invalid) data: what cannot be read is left out.
        """
        found: dict[str, int] = {}
        for arg in self.args:
            value = inputs.get(arg.name)
            if arg.size is not None:
                if type(value) is int:
                    found[arg.size] = value
                continue
            for expr in arg.shape:
                if not isinstance(value, list):
                    break
                if expr in self.sizes and expr not in found:
                    found[expr] = len(value)
                value = value[0] if value else None
        return found

    def shape_of(self, arg: Arg, dims: dict[str, int]) -> tuple[int, ...]:
        return tuple(int(evaluate(e, dims)) for e in arg.shape)

    def range_of(self, arg: Arg, dims: dict[str, int]) -> tuple[float, float]:
        """An array's or a scalar's range in a test of these sizes (an integer array's ends may be
        size expressions)."""
        if arg.bounds:
            lo, hi = (end if isinstance(end, int) else int(evaluate(end, dims)) for end in arg.bounds)
            return lo, hi
        assert arg.range is not None  # an array's or a scalar's
        return arg.range

    def output_shape_for(self, dims: dict[str, int]) -> tuple[int, ...]:
        return tuple(int(evaluate(e, dims)) for e in self.output_shape)


def _require(data: dict, key: str, kind: type | tuple[type, ...], path: Path, prefix: str = ""):
    """data[key], or a one-line ProblemError naming the file and the (dotted) key."""
    if not isinstance(data, dict):
        raise ProblemError(f"{path}: '{prefix.rstrip('.')}' must be a table")
    if key not in data:
        raise ProblemError(f"{path}: missing key '{prefix}{key}'")
    if not isinstance(data[key], kind):
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise ProblemError(f"{path}: '{prefix}{key}' must be {names}, got {type(data[key]).__name__}")
    return data[key]


def read_toml(path: Path, needed: str, where: str | None = None) -> dict:
    """One TOML file of a package; missing or malformed, a ProblemError naming it (`where`)."""
    where = where or str(path)
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ProblemError(f"{where}: no such file ({needed})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ProblemError(f"{where}: not valid TOML ({exc})") from None


def load_path(root: Path) -> Problem:
    """Read one package folder; any defect in problem.toml is a ProblemError naming the key."""
    path = root / "problem.toml"
    data = read_toml(path, "every problem package needs problem.toml")
    tol = _require(data, "tolerance", dict, path)
    sizes = {
        name: Size(name, int(_require(spec, "min", int, path, f"sizes.{name}.")),
                   int(_require(spec, "max", int, path, f"sizes.{name}.")), spec.get("description", ""),
                   spec.get("description_zh", ""))
        for name, spec in _require(data, "sizes", dict, path).items()
    }
    args = [_arg(raw, number, path, sizes) for number, raw in enumerate(_require(data, "args", list, path), 1)]
    derived = _derived(data, path, sizes)
    _check_expressions(data, path, args, sizes, derived)
    titles = {k.removeprefix("title_"): v for k, v in data.items() if k.startswith("title_")}
    return Problem(
        slug=_require(data, "slug", str, path),
        id=str(_require(data, "id", str, path)),
        title=_require(data, "title", str, path),
        titles=titles,
        method=_require(data, "method", str, path),
        args=tuple(args),
        output_shape=tuple(_require(data, "output_shape", list, path)),
        time_limit_ms=int(_require(data, "time_limit_ms", int, path)),
        memory_limit_mb=int(_require(data, "memory_limit_mb", int, path)),
        abs_tol=float(_require(tol, "abs", (int, float), path)),
        rel_tol=float(_require(tol, "rel", (int, float), path)),
        sizes=sizes,
        derived=derived,
        difficulty=_difficulty(data, path),
        tags=_tags(data, path),
        no_single_answer=_no_single_answer(data, path),
        rules=tuple(Rule(_require(r, "expr", str, path, f"rules[{i}]."), _require(r, "text", str, path, f"rules[{i}]."),
                         r.get("text_zh", ""))
                    for i, r in enumerate(data.get("rules", []), 1)),
        root=root,
        **_protocol(data, path, [a.name for a in args], {a.name: a for a in args}),
        **_verify(data, path, sizes, derived, args),
    )


ARG_KEYS = ("name", "shape", "range", "group", "size", "description", "description_zh", "mask_hidden", "integer")


def _arg(raw: object, number: int, path: Path, sizes: dict[str, Size]) -> Arg:
    """One [[args]] table: an array (shape and range), an int with its own range (range alone:
    added to `sizes` under its name), or an int equal to a declared size (size)."""
    here = f"args[{number}]"
    if not isinstance(raw, dict):
        raise ProblemError(f"{path}: '{here}' must be a table")  # as _require says it
    name = _require(raw, "name", str, path, f"{here}.")
    here = f"{here} ({name})"
    unknown = sorted(set(raw) - set(ARG_KEYS))
    if unknown:
        raise ProblemError(f"{path}: {here}: unknown key '{unknown[0]}' (known: {', '.join(ARG_KEYS)})")
    rng = raw.get("range")
    common = {"name": name, "description": raw.get("description", ""), "group": raw.get("group", "")}
    if "shape" in raw:
        shape = raw["shape"]
        if not isinstance(shape, list) or not all(isinstance(e, str) for e in shape):
            raise ProblemError(f"{path}: {here}: shape must list size expressions (none for a real scalar), "
                               f"got {shape!r}")
        if "size" in raw:
            raise ProblemError(f"{path}: {here}: give shape (an array) or size (an int), not both")
        if not shape:
            return _scalar(raw, common, rng, path, here, number)
        if "integer" in raw:
            return _integer_array(raw, common, tuple(shape), rng, path, here)
        if not isinstance(rng, list) or len(rng) != 2 or not all(type(v) in (int, float) for v in rng) \
                or not rng[0] <= rng[1]:
            raise ProblemError(f"{path}: {here}: an array needs range = [lo, hi] (two numbers, lo <= hi), "
                               f"got {rng!r}")
        return Arg(**common, shape=tuple(shape), range=(rng[0], rng[1]),
                   mask_hidden=_mask_hidden(raw, rng, path, number))
    if "mask_hidden" in raw:
        raise ProblemError(f"{path}: args[{number}].mask_hidden must be 0 or 1, on an array with range = [0, 1]")
    if "integer" in raw:
        raise ProblemError(f"{path}: {here}: integer = true is for an array (give its shape); an int argument is "
                           "whole already")
    if "size" in raw:
        size = raw["size"]
        if rng is not None:
            raise ProblemError(f"{path}: {here}: give size (an int equal to a size, which has the range) or "
                               "range (an int argument with its own range), not both")
        if size not in sizes:
            raise ProblemError(f"{path}: {here}: size {size!r} is not a size of [sizes] "
                               f"(known: {', '.join(sizes) or 'none'})")
        return Arg(**common, size=size)
    if rng is None:
        raise ProblemError(f"{path}: {here}: say what it is: shape and range (an array), range alone (an int "
                           "argument, e.g. range = [1, 1024]) or size (an int equal to one of [sizes])")
    if not isinstance(rng, list) or len(rng) != 2 or not all(type(v) is int for v in rng) or not rng[0] <= rng[1]:
        raise ProblemError(f"{path}: {here}: an int argument's range must be two whole numbers [lo, hi] with "
                           f"lo <= hi, got {rng!r}")
    if name in sizes:
        raise ProblemError(f"{path}: {here}: {name} is also declared in [sizes]: write size = {name!r} "
                           "(its range is there) or drop [sizes." + name + "]")
    sizes[name] = Size(name, rng[0], rng[1], common["description"], raw.get("description_zh", ""), argument=True)
    return Arg(**common, size=name, range=(rng[0], rng[1]))


def _integer_array(raw: dict, common: dict, shape: tuple[str, ...], rng, path: Path, here: str) -> Arg:
    """integer = true: an array of whole numbers in range = [lo, hi], each end a whole number or a
    size expression (a token id below the vocabulary: range = [0, "V - 1"])."""
    if raw["integer"] is not True:
        raise ProblemError(f"{path}: {here}: integer must be true (an array of whole numbers) or left out, "
                           f"got {raw['integer']!r}")
    if "mask_hidden" in raw:
        raise ProblemError(f"{path}: {here}: a mask (mask_hidden) is an integer array already: drop integer")
    if not isinstance(rng, list) or len(rng) != 2 or not all(type(v) in (int, str) for v in rng) \
            or (all(type(v) is int for v in rng) and not rng[0] <= rng[1]):
        raise ProblemError(f"{path}: {here}: an integer array needs range = [lo, hi], each a whole number or a "
                           f"size expression (\"V - 1\"), lo <= hi, got {rng!r}")
    numeric = (float(rng[0]), float(rng[1])) if all(type(v) is int for v in rng) else None
    return Arg(**common, shape=shape, range=numeric, integer=True, bounds=(rng[0], rng[1]))


def _scalar(raw: dict, common: dict, rng, path: Path, here: str, number: int) -> Arg:
    """shape = [] with range = [lo, hi]: one real number, drawn in the range unless a recipe fixes it."""
    if "integer" in raw:
        raise ProblemError(f"{path}: {here}: integer = true with shape = []: a whole number is an int argument "
                           "(range alone, no shape)")
    if "mask_hidden" in raw:
        raise ProblemError(f"{path}: args[{number}].mask_hidden must be 0 or 1, on an array with range = [0, 1]")
    if not isinstance(rng, list) or len(rng) != 2 or not all(type(v) in (int, float) for v in rng) \
            or not rng[0] <= rng[1] or not all(math.isfinite(v) for v in rng):
        raise ProblemError(f"{path}: {here}: a real scalar (shape = []) needs range = [lo, hi] (two finite "
                           f"numbers, lo <= hi), got {rng!r}")
    return Arg(**common, shape=(), range=(float(rng[0]), float(rng[1])))


def _derived(data: dict, path: Path, sizes: dict[str, Size]) -> dict[str, str]:
    """[derived]: name = "expression" over the sizes and the derived sizes above it."""
    table = data.get("derived", {})
    if not isinstance(table, dict):
        raise ProblemError(f"{path}: 'derived' must be a table ([derived]) of name = \"expression\"")
    known = set(sizes)
    for name, expr in table.items():
        if name in known:
            raise ProblemError(f"{path}: derived.{name}: {name} is already a size")
        _names_known(expr, known, path, f"derived.{name}")
        known.add(name)
    return dict(table)


def _check_expressions(data: dict, path: Path, args: list[Arg], sizes: dict[str, Size],
                       derived: dict[str, str]) -> None:
    """Every shape, output axis and rule names known sizes, and every size can be read from a test."""
    known = set(sizes) | set(derived)
    for number, arg in enumerate(args, 1):
        for axis, expr in enumerate(arg.shape):
            _names_known(expr, known, path, f"args[{number}] ({arg.name}).shape[{axis}]")
        for end, bound in enumerate(arg.bounds):
            if isinstance(bound, str):
                _names_known(bound, known, path, f"args[{number}] ({arg.name}).range[{end}]")
    for axis, expr in enumerate(_require(data, "output_shape", list, path)):
        _names_known(expr, known, path, f"output_shape[{axis}]")
    for number, rule in enumerate(data.get("rules", []), 1):
        if isinstance(rule, dict) and isinstance(rule.get("expr"), str):
            _names_known(rule["expr"], known, path, f"rules[{number}].expr")
    shown_by = {a.size for a in args if a.size} | {e for a in args for e in a.shape}
    hidden = [name for name in sizes if name not in shown_by]
    if hidden:
        raise ProblemError(f"{path}: sizes.{hidden[0]}: no argument shows it, so a test cannot give it: use it alone "
                           f"as an axis of an array's shape, give an int argument size = {hidden[0]!r}, or move it "
                           "to [derived]")


def _names_known(expr: object, known: set[str], path: Path, where: str) -> None:
    if not isinstance(expr, str):
        raise ProblemError(f"{path}: {where} must be an expression string, got {expr!r}")
    try:
        unknown = sorted(names(expr) - known)
    except ExprError as exc:
        raise ProblemError(f"{path}: {where}: {exc}") from None
    if unknown:
        raise ProblemError(f"{path}: {where}: unknown size '{unknown[0]}' in {expr!r} "
                           f"(known: {', '.join(sorted(known, key=str.lower))})")


MARGINS = ("accepted_divisor", "reference_divisor")
VERIFY = (*MARGINS, "attention")
ATTENTION_SIZES = ("T", "d_model")
ATTENTION_ARGS = ("X", "W_Q", "b_Q", "W_K", "b_K")


def _verify(data: dict, path: Path, sizes: dict[str, Size], derived: dict[str, str], args: list[Arg]) -> dict:
    """`[verify]`: a package's own time margins for `make verify` (whole numbers from 1 up), and
    `attention = true` for the attention rules (testcases/package_rules.py), which read scores from
    X, W_Q, b_Q, W_K, b_K in heads of d_k columns."""
    table = data.get("verify", {})
    if not isinstance(table, dict):
        raise ProblemError(f"{path}: 'verify' must be a table ([verify]) with {', '.join(VERIFY)}")
    unknown = sorted(set(table) - set(VERIFY))
    if unknown:
        raise ProblemError(f"{path}: verify.{unknown[0]} is not a setting (known: {', '.join(VERIFY)})")
    for key in MARGINS:
        value = table.get(key, 1)
        if type(value) is not int or value < 1:
            raise ProblemError(f"{path}: verify.{key} must be a whole number from 1 up, got {value!r}")
    attention = table.get("attention", False)
    if type(attention) is not bool:
        raise ProblemError(f"{path}: verify.attention must be true or false, got {attention!r}")
    arrays = {a.name for a in args if a.is_array}
    if attention and (set(ATTENTION_SIZES) - set(sizes) or "d_k" not in derived or set(ATTENTION_ARGS) - arrays):
        raise ProblemError(f"{path}: verify.attention needs the sizes {', '.join(ATTENTION_SIZES)}, the derived "
                           f"size d_k and the array arguments {', '.join(ATTENTION_ARGS)} (its rules read the scores "
                           "from them)")
    return {**{k: table[k] for k in MARGINS if k in table}, "attention": attention}


KINDS = ("function", "interactive")


def _protocol(data: dict, path: Path, names: list[str], args: dict[str, Arg]) -> dict:
    """`kind`, and for an interactive problem its `constructor` arguments and `stream` argument."""
    kind = data.get("kind", "function")
    if kind not in KINDS:
        raise ProblemError(f"{path}: 'kind' must be one of {', '.join(KINDS)}, got {kind!r}")
    if kind == "function":
        extra = sorted({"constructor", "stream"} & set(data))
        if extra:
            raise ProblemError(f"{path}: '{extra[0]}' is for kind = \"interactive\" only")
        return {}
    constructor = _require(data, "constructor", list, path)
    stream = _require(data, "stream", str, path)
    if stream not in args or not args[stream].is_array or len(args[stream].shape) < 1:
        raise ProblemError(f"{path}: 'stream' must name an array argument (its rows are sent one per step), "
                           f"got {stream!r}")
    if sorted(constructor + [stream]) != sorted(names) or len(set(constructor)) != len(constructor):
        raise ProblemError(f"{path}: 'constructor' must list every argument but the stream '{stream}' once, "
                           f"in the order __init__ takes them (arguments: {', '.join(names)})")
    if len(data.get("output_shape", [])) < 1 or data["output_shape"][0] != args[stream].shape[0]:
        raise ProblemError(f"{path}: 'output_shape' must start with the stream's first axis "
                           f"({args[stream].shape[0]}): row t is what step t returns")
    return {"kind": kind, "constructor": tuple(constructor), "stream": stream}


def _mask_hidden(raw: dict, rng, path: Path, number: int) -> int | None:
    """`mask_hidden`: 0 or 1, on an array whose range is [0, 1]."""
    if "mask_hidden" not in raw:
        return None
    value = raw["mask_hidden"]
    if type(value) is not int or value not in (0, 1) or not rng or list(rng) != [0, 1] or not raw.get("shape"):
        raise ProblemError(f"{path}: args[{number}].mask_hidden must be 0 or 1, on an array with range = [0, 1]")
    return value


def _difficulty(data: dict, path: Path) -> int | None:
    if "difficulty" not in data:
        return None
    value = data["difficulty"]
    if type(value) is not int or not 1 <= value <= 10:
        raise ProblemError(f"{path}: 'difficulty' must be a whole number from 1 to 10, got {value!r}")
    return value


def _no_single_answer(data: dict, path: Path) -> str | None:
    """`no_single_answer`: a heading of spec.md (without the #), such as "Checking"."""
    value = data.get("no_single_answer")
    if value is not None and (not isinstance(value, str) or not value.strip() or "\n" in value):
        raise ProblemError(f"{path}: 'no_single_answer' must name a section of spec.md (its heading, e.g. "
                           f"\"Checking\"), got {value!r}")
    return value


TAG = re.compile(r"^[a-z][a-z0-9-]{0,19}$")


def _tags(data: dict, path: Path) -> tuple[str, ...]:
    """`tags`: a list of short lower-case words (a-z, digits, -), each once."""
    value = data.get("tags", [])
    if not isinstance(value, list) or not all(isinstance(t, str) and TAG.match(t) for t in value) \
            or len(set(value)) != len(value):
        raise ProblemError(f"{path}: 'tags' must be a list of distinct short lower-case words (a-z, 0-9, -; up to 20 "
                           f"characters), got {value!r}")
    return tuple(value)


def by_difficulty(problems: list[Problem]) -> list[Problem]:
    """Easiest first (no difficulty last), then by slug: the order every list of problems shows."""
    return sorted(problems, key=lambda p: (p.difficulty or 11, p.slug))


def shown(path: Path) -> str:
    """A path as messages show it: relative to the current folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def all_problems(root: Path = ROOT) -> list[Problem]:
    """Every package under `root` (problems/ unless a copy is named), in slug order."""
    return [load_path(p.parent) for p in sorted(root.glob("*/problem.toml"))]


def load(name: str, root: Path = ROOT) -> Problem:
    """A problem by slug ('gqa') or id ('P4497'), case-insensitive, or a package folder's path."""
    if "/" in name or name.startswith("."):
        folder = Path(name)
        if not (folder / "problem.toml").is_file():
            raise ProblemError(f"{folder}: not a problem package (no problem.toml)")
        return load_path(folder.resolve())
    wanted = name.strip().lower()
    folder = root / wanted
    if wanted.isidentifier() and (folder / "problem.toml").is_file():  # by slug: read that package alone
        problem = load_path(folder)  # the one asked for, not every package
        if problem.slug.lower() == wanted:
            return problem
    known = all_problems(root)
    for problem in known:
        if wanted in (problem.slug.lower(), problem.id.lower()):
            return problem
    choices = ", ".join(f"{p.slug} ({p.id})" for p in known) or "none"
    where = "known problems are" if root == ROOT else f"{shown(root)}/ holds"
    raise ProblemError(f"unknown problem '{name}': {where} {choices}")


def by_method(method: str) -> Problem | None:
    """The problem whose Solution method has this name, if any."""
    return next((p for p in all_problems() if p.method == method), None)
