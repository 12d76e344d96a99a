"""Recipes: how each stored test of a problem is made, read from problems/<slug>/recipes.toml.

A recipe is data, so the three problems share one engine and differ only in their files. A recipe
either gives its input outright (a published sample) or gives sizes and value options from which a
seeded generator draws the input. Every recipe is checked against problem.toml before anything is
drawn, so a recipe that asks for an impossible test is refused with a one-line reason.

Value options apply per argument. Each is a single value for every array argument, or a table
whose keys are argument groups (input, weight, bias) or argument names; a name beats its group:

- values = "int" | "real"         integers, or reals drawn uniformly (default "real"; an integer
                                  array, integer = true in problem.toml, is always drawn as integers)
- scale = 0.001                   magnitude as a fraction of the argument's range (default 1)
- limits = 0.5                    fraction of elements set exactly to an end of the (scaled) range
- decimals = 3                    reals on a grid of 10**-decimals (short, readable files)
- distinct_rows = {X = 2}         rows (along the last axis) drawn from a pool of this many, so rows repeat
- mask = "padding"                for a mask argument (mask_hidden in problem.toml), the pattern drawn:
                                  random, padding, lookahead, none, or a list of them (their union);
                                  the other options do not apply to a mask
- outer = {X = "split s"}         the array as a rank-one outer product of sign vectors, every element
                                  at an end of its (scaled) range: value[..., i, j] = row[i] * col[j]
                                  mapped to the upper end for +1 and the lower end for -1 (see below)
- expose = ["no_scale", ...]      variants (see below) the test must tell from the right answer

A real scalar argument (shape = [] in problem.toml: eps, temperature) is drawn uniformly in its
range unless the recipe fixes it: scalars = {eps = 1e-5} (a number in the range, per argument).

Outer products (`outer`) build arrays whose products a test controls exactly, such as scores far
beyond what random values reach (visible scores of -1e12 with hidden ones of +1e12). The text is
"ROW COL" for an array of 2 or more axes (the row vector runs along the second-to-last axis, the
column vector along the last, and every leading index repeats the same matrix) and "COL" for a
1-D array. A vector is a name (lower case: s, r, q2), drawn once per test as random +-1 entries
from the test's seeded generator and shared by every argument of the test that names it (so
X = "split s", W_Q = "s r" multiply s by itself); "+" is all ones, "split" is +1 up to a drawn
position (1 to its length - 1) and -1 after it, and a leading "-" negates any of them ("s -r").
A name has one length in a test. `scale`, `values` and `decimals` still set the two ends; the
other value options do not apply to such an argument, and distinct_rows is refused with it.

Categories: every problem has the six of CATEGORIES; recipes.toml may declare more in a top-level
[categories] table (name = "what its tests are for"), each of which some test must use.

A variant is a wrong computation that can be reproduced with the reference itself:
[variants.<name>] multiply = [args], by_sqrt = "<size expr>", over_sqrt = "<size expr>" re-runs
the reference with those arguments multiplied by sqrt(by_sqrt) / sqrt(over_sqrt), and
dtype = "float32" (or "float16") re-runs it computing in that dtype instead of float64 (the
reference converts everything with its `dtype` attribute); a variant may have both.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from problems import Problem, ProblemError
from problems.expr import ExprError, evaluate, names
from problems.package import read_toml, shown

CATEGORIES = ("sample", "edge", "soft", "extreme", "ties", "large")
VALUE_KINDS = ("int", "real")
TEST_KEYS = {"id", "category", "note", "input", "sizes", "values", "scale", "limits", "decimals",
             "distinct_rows", "mask", "outer", "expose", "scalars"}
MASK_PATTERNS = ("random", "padding", "lookahead", "none")
VARIANT_DTYPES = ("float16", "float32")  # what a variant may compute in: less precise than the judge's float64
OUTER_TOKEN = re.compile(r"^(-?)(\+|[a-z][a-z0-9_]*)$")  # a sign vector: +, -, name, -name (split included)
CATEGORY_NAME = re.compile(r"^[a-z]+$")
MAX_ID = 999  # file names are NNN-<category>.json
OPTION_DEFAULTS: dict[str, Any] = {"values": "real", "scale": 1.0, "limits": 0.0, "decimals": None,
                                   "distinct_rows": None, "mask": "random", "outer": None}


@dataclass(frozen=True)
class Variant:
    """A wrong computation reproduced by the reference: some arguments scaled, or another dtype, or both."""

    name: str
    multiply: tuple[str, ...]
    by_sqrt: str = "1"
    over_sqrt: str = "1"
    dtype: str | None = None  # one of VARIANT_DTYPES: the reference re-run computing in it

    def factor(self, dims: dict[str, int]) -> float:
        return math.sqrt(evaluate(self.by_sqrt, dims) / evaluate(self.over_sqrt, dims))


@dataclass(frozen=True)
class Recipe:
    """One test to make. `where` names it in messages; `raw` (less the note and id) seeds its draw.

    `number` is the test's id: its stable file number, written in recipes.toml, so that adding a
    test never renames another (None for a one-off test made with --new).
    """

    category: str
    note: str
    where: str
    raw: dict
    input: dict | None = None
    sizes: dict[str, int] = field(default_factory=dict)
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    expose: tuple[Variant, ...] = ()
    number: int | None = None
    scalars: dict[str, float] = field(default_factory=dict)  # real scalar arguments the recipe fixes

    @property
    def file_name(self) -> str:
        return f"{self.number:03d}-{self.category}.json"

    @property
    def explicit(self) -> bool:
        return self.input is not None

    def option(self, name: str, arg: str) -> Any:
        return self.options[name][arg]

    def canonical(self) -> str:
        """The recipe as seed material: canonical JSON of what was written, less the note.

        Rewording a note or renumbering must not change a test; changing any option or size must.
        """
        data = {k: v for k, v in self.raw.items() if k not in ("note", "id")}
        return json.dumps(data, sort_keys=True, separators=(",", ":"))


def load_recipes(problem: Problem, path: Path | None = None) -> list[Recipe]:
    """Every recipe of a problem, checked; a defect is a ProblemError naming the test and rule."""
    path = path or problem.recipes_path
    where, data = shown(path), _read(path)
    variants = _variants(problem, data.get("variants", {}), where)
    extra = _categories(data.get("categories", {}), where)
    tests = data.get("test", [])
    if not tests:
        raise ProblemError(f"{where}: no [[test]] tables")
    recipes = [parse_recipe(problem, raw, f"{where}: test {i}", variants, tuple(extra))
               for i, raw in enumerate(tests, 1)]
    _check_ids(recipes, tests)
    unused = [name for name in extra if all(r.category != name for r in recipes)]
    if unused:
        raise ProblemError(f"{where}: category '{unused[0]}' is declared in [categories] but no test uses it")
    seen: dict[str, int] = {}
    for number, recipe in enumerate(recipes, 1):
        key = recipe.canonical()
        if key in seen:
            raise ProblemError(f"{recipe.where}: repeats test {seen[key]} (the same recipe gives the same test)")
        seen[key] = number
    return recipes


def categories(problem: Problem) -> tuple[str, ...]:
    """Every category a problem's tests may have: the six shared ones, then its own declared ones."""
    path = problem.recipes_path
    if not path.is_file():
        return CATEGORIES
    where = shown(path)
    return CATEGORIES + tuple(_categories(_read(path).get("categories", {}), where))


def _categories(raw: Any, where: str) -> dict[str, str]:
    """The [categories] table: lower-case names (they go into file names) with a description."""
    if not isinstance(raw, dict):
        raise ProblemError(f"{where}: [categories] must be a table of name = \"what its tests are for\"")
    for name, text in raw.items():
        if not CATEGORY_NAME.match(name) or name in CATEGORIES or not isinstance(text, str):
            raise ProblemError(f"{where}: categories.{name}: a new category needs a lower-case name (a-z) other than "
                               f"{', '.join(CATEGORIES)}, and a description string")
    return dict(raw)


def next_free_id(ids: list) -> int:
    """The id a new test takes: one past the largest (a removed test's id is never reused)."""
    return max((i for i in ids if type(i) is int), default=0) + 1


def _check_ids(recipes: list[Recipe], raws: list[dict]) -> None:
    """Every test has its own id; a missing or repeated one names the next free id."""
    ids = [raw.get("id") for raw in raws]
    free = next_free_id(ids)
    owner: dict[int, str] = {}
    for recipe, number in zip(recipes, ids):
        if type(number) is not int or not 1 <= number <= MAX_ID:
            raise ProblemError(f"{recipe.where}: needs id = N, its stable file number (1 to {MAX_ID}; "
                               f"the next free one is {free}), got {number!r}")
        if number in owner:
            raise ProblemError(f"{recipe.where}: id {number} is already used by [[test]] table {owner[number]} "
                               f"(the next free one is {free})")
        owner[number] = recipe.where.rpartition(": test ")[2]


def load_variants(problem: Problem) -> dict[str, Variant]:
    """The named wrong computations of a problem's recipes.toml (for `--new ... expose=[...]`)."""
    path = problem.recipes_path
    if not path.is_file():
        return {}
    return _variants(problem, _read(path).get("variants", {}), shown(path))


def _read(path: Path) -> dict:
    where = shown(path)
    data = read_toml(path, "each problem needs its recipes", where)
    unknown = set(data) - {"variants", "categories", "test"}
    if unknown:
        raise ProblemError(f"{where}: unknown top-level key '{sorted(unknown)[0]}' "
                           "(allowed: variants, categories, test)")
    return data


def _variants(problem: Problem, raw: dict, where: str) -> dict[str, Variant]:
    known = set(problem.sizes) | set(problem.derived)
    out = {}
    for name, spec in raw.items():
        here = f"{where}: variants.{name}"
        if not isinstance(spec, dict) or not set(spec) <= {"multiply", "by_sqrt", "over_sqrt", "dtype"}:
            raise ProblemError(f"{here}: a variant has keys multiply, by_sqrt, over_sqrt, dtype")
        dtype = spec.get("dtype")
        if dtype is not None and dtype not in VARIANT_DTYPES:
            raise ProblemError(f"{here}: dtype must be one of {', '.join(VARIANT_DTYPES)}, got {dtype!r}")
        multiply = spec.get("multiply", [])
        bad = [a for a in multiply if not isinstance(a, str) or a not in problem.arg_names] \
            if isinstance(multiply, list) else [multiply]
        if (not multiply and dtype is None) or bad:
            raise ProblemError(f"{here}: multiply must list arguments of {problem.method}, got {multiply}")
        for key in ("by_sqrt", "over_sqrt"):
            try:
                missing = names(str(spec.get(key, "1"))) - known
            except ExprError as exc:
                raise ProblemError(f"{here}: {key}: {exc}") from None
            if missing:
                raise ProblemError(f"{here}: {key}: unknown size '{sorted(missing)[0]}'")
        out[name] = Variant(name, tuple(multiply), str(spec.get("by_sqrt", "1")), str(spec.get("over_sqrt", "1")),
                            dtype)
    return out


def parse_recipe(problem: Problem, raw: dict, where: str, variants: dict[str, Variant],
                 extra_categories: tuple[str, ...] = ()) -> Recipe:
    """Check one recipe table against the problem and normalise its options per argument."""
    unknown = set(raw) - TEST_KEYS
    if unknown:
        raise ProblemError(f"{where}: unknown key '{sorted(unknown)[0]}' (allowed: {', '.join(sorted(TEST_KEYS))})")
    category = raw.get("category")
    allowed = CATEGORIES + extra_categories
    if category not in allowed:
        raise ProblemError(f"{where}: category must be one of {', '.join(allowed)}, got {category!r}")
    note = raw.get("note", "")
    if not isinstance(note, str):
        raise ProblemError(f"{where}: note must be a string")
    if "input" in raw:
        extra = set(raw) - {"id", "category", "note", "input"}
        if extra:
            raise ProblemError(f"{where}: a test with an explicit input takes no '{sorted(extra)[0]}'")
        given = raw["input"]
        if not isinstance(given, dict) or set(given) != set(problem.arg_names):
            raise ProblemError(f"{where}: input must give exactly the arguments {', '.join(problem.arg_names)}")
        ordered = {name: given[name] for name in problem.arg_names}
        return Recipe(category, note, where, raw, input=ordered, number=_id(raw))
    sizes = raw.get("sizes")
    if not isinstance(sizes, dict):
        raise ProblemError(f"{where}: give either input or sizes = {{{', '.join(problem.sizes)}}}")
    extra = set(sizes) - set(problem.sizes)
    if extra:
        raise ProblemError(f"{where}: unknown size '{sorted(extra)[0]}' (problem.toml has {', '.join(problem.sizes)})")
    missing = [name for name in problem.sizes if name not in sizes]
    if missing:
        raise ProblemError(f"{where}: sizes is missing {missing[0]} (give every size: {', '.join(problem.sizes)})")
    violations = problem.size_violations(sizes)
    if violations:
        raise ProblemError(f"{where}: {violations[0]}")
    options = {name: _per_arg(problem, raw.get(name, default), name, where)
               for name, default in OPTION_DEFAULTS.items()}
    _check_options(problem, options, sizes, where)
    expose = raw.get("expose", [])
    if isinstance(expose, str):  # expose=no_scale on a command line: one variant
        expose = [expose]
    missing = [v for v in expose if v not in variants]
    if not isinstance(expose, list) or missing:
        raise ProblemError(f"{where}: expose names unknown variant(s) {missing} "
                           f"(known: {', '.join(variants) or 'none'})")
    return Recipe(category, note, where, raw, sizes=dict(sizes), options=options,
                  expose=tuple(variants[v] for v in expose), number=_id(raw),
                  scalars=_scalars(problem, raw.get("scalars", {}), where))


def _scalars(problem: Problem, raw: Any, where: str) -> dict[str, float]:
    """`scalars = {eps = 1e-5}`: real scalar arguments fixed to a number in their range."""
    known = {a.name: a for a in problem.args if a.is_scalar}
    if not isinstance(raw, dict):
        raise ProblemError(f"{where}: scalars must be a table of real scalar argument = number, got {raw!r}")
    out = {}
    for name, value in raw.items():
        arg = known.get(name)
        if arg is None:
            raise ProblemError(f"{where}: scalars: '{name}' is not a real scalar argument (shape = []) of "
                               f"{problem.method} (known: {', '.join(known) or 'none'})")
        assert arg.range is not None  # a scalar's
        if type(value) not in (int, float) or not arg.range[0] <= value <= arg.range[1]:
            raise ProblemError(f"{where}: scalars: {name} must be a number in [{_num(arg.range[0])}, "
                               f"{_num(arg.range[1])}], got {value!r}")
        out[name] = float(value)
    return out


def _num(value: float) -> str:
    """A range end as problem.toml would write it: 1024, not 1024.0."""
    return str(int(value)) if float(value).is_integer() and abs(value) < 1e16 else repr(value)


def _id(raw: dict) -> int | None:
    number = raw.get("id")
    return number if type(number) is int else None


def _per_arg(problem: Problem, value: Any, option: str, where: str) -> dict[str, Any]:
    """Resolve an option to one value per array argument: names beat groups beat the default."""
    arrays = [a for a in problem.args if a.is_array]
    if not isinstance(value, dict):
        return {a.name: value for a in arrays}
    groups = {a.group for a in arrays}
    bad = set(value) - groups - {a.name for a in arrays}
    if bad:
        raise ProblemError(f"{where}: {option}: '{sorted(bad)[0]}' is neither an array argument nor a group "
                           f"({', '.join(sorted(groups))})")
    default = OPTION_DEFAULTS[option]
    return {a.name: value.get(a.name, value.get(a.group, default)) for a in arrays}


def _check_options(problem: Problem, options: dict[str, dict[str, Any]], sizes: dict[str, int], where: str) -> None:
    dims = problem.dims(sizes)
    lengths: dict[str, tuple[int, str]] = {}  # a sign vector's length, and the argument that first set it
    for arg in (a for a in problem.args if a.is_array):
        kind, scale, limits = options["values"][arg.name], options["scale"][arg.name], options["limits"][arg.name]
        decimals, rows = options["decimals"][arg.name], options["distinct_rows"][arg.name]
        outer = options["outer"][arg.name]
        if arg.is_mask:
            if outer is not None:
                raise ProblemError(f"{where}: outer for {arg.name}: a mask is drawn from its mask patterns, not from "
                                   "sign vectors")
            _check_mask(arg, options["mask"][arg.name], where)
            continue
        if outer is not None:
            _check_outer(arg, outer, problem.shape_of(arg, dims), lengths, where)
            if rows is not None:
                raise ProblemError(f"{where}: outer for {arg.name}: distinct_rows does not apply to an outer product")
        if kind not in VALUE_KINDS:
            raise ProblemError(f"{where}: values for {arg.name} must be one of {', '.join(VALUE_KINDS)}, got {kind!r}")
        if type(scale) not in (int, float) or not 0 < scale <= 1:
            raise ProblemError(f"{where}: scale for {arg.name} must be a fraction in (0, 1], got {scale!r}")
        if type(limits) not in (int, float) or not 0 <= limits <= 1:
            raise ProblemError(f"{where}: limits for {arg.name} must be a fraction in [0, 1], got {limits!r}")
        if decimals is not None and arg.integer:
            raise ProblemError(f"{where}: decimals for {arg.name}: an integer array holds whole numbers only")
        if decimals is not None and (kind != "real" or type(decimals) is not int or decimals < 0):
            raise ProblemError(f"{where}: decimals for {arg.name} must be a whole number >= 0 with real values")
        if rows is not None:
            shape = problem.shape_of(arg, dims)
            length = math.prod(shape[:-1])
            if len(shape) < 2:
                raise ProblemError(f"{where}: distinct_rows for {arg.name}: rows need an array of 2 or more axes")
            if type(rows) is not int or not 1 <= rows <= length:
                raise ProblemError(f"{where}: distinct_rows for {arg.name} must be a whole number in [1, {length}], "
                                   f"got {rows!r}")
        if kind == "int" or arg.integer:
            lo, hi = problem.range_of(arg, dims)
            if lo > hi:
                raise ProblemError(f"{where}: {arg.name}'s range [{', '.join(arg.range_text())}] is [{lo}, {hi}] "
                                   "at these sizes: empty")
            if math.ceil(lo * scale) > math.floor(hi * scale):
                raise ProblemError(f"{where}: scale {scale} leaves no integer in {arg.name}'s range")


def parse_outer(text: Any) -> list[tuple[int, str]] | None:
    """The sign vectors of an `outer` option as (sign, name) pairs, row first; None when malformed.

    A name is "+" for all ones, "split" for the split vector, or a named random vector.
    """
    if not isinstance(text, str):
        return None
    vectors = []
    for token in text.split():
        match = OUTER_TOKEN.match(token)
        if match is None:
            return None
        vectors.append((-1 if match[1] else 1, match[2]))
    return vectors


def outer_axes(shape: tuple[int, ...]) -> tuple[int, ...]:
    """The lengths an outer product's vectors run along: (rows, columns), or (columns,) for 1-D."""
    return tuple(shape[-2:])


def _check_outer(arg, text: Any, shape: tuple[int, ...], lengths: dict[str, tuple[int, str]], where: str) -> None:
    vectors = parse_outer(text)
    axes = outer_axes(shape)
    wanted = '"COL" (one sign vector for a 1-D array)' if len(axes) == 1 else '"ROW COL" (two sign vectors)'
    if vectors is None or len(vectors) != len(axes):
        raise ProblemError(f"{where}: outer for {arg.name} must be {wanted}, each +, split or a lower-case name, "
                           f"optionally negated with -, got {text!r}")
    for (_, name), length in zip(vectors, axes):
        if name == "+":
            continue
        first = lengths.setdefault(name, (length, arg.name))
        if first[0] != length:
            raise ProblemError(f"{where}: outer for {arg.name}: vector '{name}' has length {length} here but "
                               f"{first[0]} in {first[1]} (a vector has one length in a test)")


def _check_mask(arg, patterns: Any, where: str) -> None:
    chosen = [patterns] if isinstance(patterns, str) else patterns
    if not isinstance(chosen, list) or not chosen or any(p not in MASK_PATTERNS for p in chosen):
        raise ProblemError(f"{where}: mask for {arg.name} must be one of {', '.join(MASK_PATTERNS)} or a list of "
                           f"them, got {patterns!r}")
    if len(arg.shape) < 2 and set(chosen) & {"padding", "lookahead"}:
        raise ProblemError(f"{where}: mask for {arg.name}: padding and lookahead need rows and columns "
                           "(2 or more axes)")


def recipe_from_pairs(problem: Problem, pairs: list[str], variants: dict[str, Variant] | None = None) -> Recipe:
    """A recipe from command-line words: key=value, sizes by name, tables by dots (scale.input=0.01).

    Values are read as TOML values (numbers, quoted or bare strings, arrays).
    """
    raw: dict[str, Any] = {}
    for pair in pairs:
        key, eq, text = pair.partition("=")
        if not eq or not key:
            raise ProblemError(f"--new: '{pair}' is not key=value")
        value = _value(text)
        head, dot, sub = key.partition(".")
        if key in problem.sizes:
            head, dot, sub = "sizes", ".", key
        if not dot:
            raw[key] = value
        elif isinstance(raw.setdefault(head, {}), dict):
            raw[head][sub] = value
        else:
            raise ProblemError(f"--new: '{pair}' adds to {head}, which is already given as {raw[head]!r}")
    return parse_recipe(problem, raw, "--new", variants or {}, categories(problem)[len(CATEGORIES):])


def _value(text: str) -> Any:
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text
