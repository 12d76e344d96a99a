"""The stored tests and the generator that makes them (python -m testcases).

The generator is exercised through its command line, the way `make testcases` runs it, always
into a temporary folder: these tests never write into the checkout.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import first_fast

from problems import ProblemError, all_problems, load
from testcases import oracle
from testcases.condition import CONDITION_FRACTION, in_tolerances, tolerance
from testcases.draw import draw_input
from testcases.expose import EXPOSE_MIN_TOLERANCES, separation
from testcases.package_rules import violations
from testcases.recipes import CATEGORIES, Variant, categories, load_recipes, load_variants, parse_recipe
from testcases.render import LANGUAGES, blocks_for, problems_table, read_blocks, sample_block

ROOT = Path(__file__).resolve().parent.parent
PROBLEMS = all_problems()
# The attention family: the packages that opt into the attention package rules ([verify]
# attention = true: X, W_Q, b_Q, W_K, b_K, heads of d_k); the checks of what their soft tests
# promise run on these. The package rules themselves are make verify's (testcases/package_rules.py).
ATTENTION = [p for p in PROBLEMS if p.attention]
# Of those, the ones without a mask, which the independent attention below computes.
UNMASKED = [p for p in ATTENTION if p.method in {"grouped_query_attention", "multi_head_attention",
                                                 "multi_query_attention"}]
KNOWN = ", ".join(f"{p.slug} ({p.id})" for p in PROBLEMS)
P4497_SAMPLE = {
    "X": [[1, 0, 1, 2], [0, 1, 1, 0]],
    "W_Q": [[1, 0, 0, 1], [0, 1, 1, 0], [1, 0, 1, 0], [0, 1, 0, 1]],
    "b_Q": [0, 0, 0, 0],
    "W_K": [[1, 1], [0, 1], [1, 0], [0, 1]],
    "b_K": [0, 0],
    "W_V": [[1, 0], [1, 1], [0, 1], [0, 0]],
    "b_V": [0, 0],
    "h_q": 2,
    "h_k": 1,
    "W_O": [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 1], [0, 1, 1, 0]],
    "b_O": [0, 0, 0, 0],
}
P4497_OUTPUT = [[2.00, 2.02, 2.01, 2.01], [2.00, 2.30, 2.20, 2.11]]


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "testcases", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=1800)


def stored(category: str | None = None, problems: list | None = None) -> list[tuple]:
    """(problem, path, data) for every stored test, optionally of one category."""
    out = []
    for problem in PROBLEMS if problems is None else problems:
        for path in problem.test_files():
            data = json.loads(path.read_text(encoding="utf-8"))
            if category in (None, data["category"]):
                out.append(pytest.param(problem, path, data, id=f"{problem.slug}/{path.name}"))
    return out


def attention(problem, inputs: dict, divide_by: str) -> np.ndarray:
    """An independent loop-over-heads attention, scores divided by sqrt(d_k), sqrt(d_model) or 1.

    It reads the head count from the shapes (h_k = width of W_K / d_k), so it serves GQA, MHA
    (h_k = h_q) and MQA (h_k = 1) alike.
    """
    dims = problem.dims(problem.sizes_of(inputs))
    a = {k: np.asarray(v, dtype=np.float64) for k, v in inputs.items()}
    d_k = dims["d_k"]
    Q, K, V = (a["X"] @ a[f"W_{n}"] + a[f"b_{n}"] for n in "QKV")
    h_q, h_k = Q.shape[1] // d_k, K.shape[1] // d_k
    scale = {"d_k": math.sqrt(d_k), "d_model": math.sqrt(Q.shape[1]), "1": 1.0}[divide_by]
    heads = []
    for i in range(h_q):
        g = i // (h_q // h_k)
        scores = Q[:, i * d_k:(i + 1) * d_k] @ K[:, g * d_k:(g + 1) * d_k].T / scale
        weights = np.exp(scores - scores.max(axis=1, keepdims=True))
        heads.append(weights / weights.sum(axis=1, keepdims=True) @ V[:, g * d_k:(g + 1) * d_k])
    return np.hstack(heads) @ a["W_O"] + a["b_O"]


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("regenerated")
    run = cli("all", "--out-dir", str(out))
    assert run.returncode == 0, run.stderr
    return out


@pytest.mark.slow  # regenerates every problem: minutes
def test_regeneration_is_byte_identical(regenerated):
    for problem in PROBLEMS:
        fresh = sorted(p.name for p in (regenerated / problem.slug / "tests").glob("*.json"))
        assert fresh == [p.name for p in problem.test_files()], problem.slug
        for name in fresh:
            made = (regenerated / problem.slug / "tests" / name).read_bytes()
            assert made == (problem.tests_dir / name).read_bytes(), name
        for file in LANGUAGES.values():
            spec = regenerated / problem.slug / file
            if spec.is_file():  # only when the statement has generated blocks
                assert spec.read_bytes() == (problem.root / file).read_bytes(), \
                    f"{problem.slug}: {file} blocks are stale"


@pytest.mark.parametrize("problem", PROBLEMS, ids=lambda p: p.slug)
def test_both_statements_carry_the_same_generated_blocks(problem):
    """spec.md and spec.zh.md hold the same blocks, rendered from the same data: the numbers, shapes and
    sample bytes agree, and only the fixed words around them are translated."""
    stored = [(path.name, read_json(path)) for path in problem.test_files()]
    found = {lang: read_blocks((problem.root / file).read_text(encoding="utf-8"))
             for lang, file in LANGUAGES.items()}
    assert set(found["en"]) == set(found["zh"]) == {"constraints", "sample"}, problem.slug
    for lang, blocks in found.items():
        assert blocks == blocks_for(problem, stored, lang), f"{problem.slug} {lang}: run make testcases"
    fenced = {lang: re.findall(r"```text\n.*?```", blocks["sample"], re.DOTALL) for lang, blocks in found.items()}
    assert fenced["en"] == fenced["zh"] and fenced["en"]
    numbers = {lang: re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", blocks["constraints"]) for lang, blocks in found.items()}
    assert numbers["en"] == numbers["zh"]


def test_the_readme_lists_every_problem():
    """The README's table of problems is rendered from the packages (make testcases writes it)."""
    blocks = read_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    assert blocks.get("problems") == problems_table(PROBLEMS, ROOT), "run make testcases"
    assert all(f"`{p.slug}` (`{p.id}`)" in blocks["problems"] for p in PROBLEMS)


def read_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.slow
def test_regenerated_tests_validate(regenerated):
    run = cli("validate", "--out-dir", str(regenerated))
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""


@pytest.mark.slow  # every stored test, in long double
@pytest.mark.parametrize(("problem", "path", "data"), stored())
def test_reference_reproduces_expected(problem, path, data):
    got = oracle.run(problem, data["input"])
    expected = np.asarray(data["expected"])
    assert got.shape == expected.shape
    assert in_tolerances(got - expected, tolerance(problem, expected)).max(initial=0) <= CONDITION_FRACTION


def test_p4497_sample_is_gqa_test_001():
    problem = load("P4497")
    assert problem.slug == "gqa"
    path = problem.tests_dir / "001-sample.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["input"] == P4497_SAMPLE
    assert all(type(v) is int for row in data["input"]["X"] for v in row)  # integers stay integers
    got = oracle.run(problem, data["input"])
    assert np.round(got, 2).tolist() == P4497_OUTPUT
    assert np.round(data["expected"], 2).tolist() == P4497_OUTPUT


@pytest.mark.parametrize("problem", PROBLEMS, ids=lambda p: p.slug)
def test_every_package_rule_holds(problem):
    """make verify's package rules (the sample first, every category, sizes at both ends, the
    largest input in a large test, extreme and ties tests, the budget, current statements, a step
    for every wrong answer), checked here without judging anything; tests/test_verify.py breaks
    each one through verify's entry point."""
    assert violations(problem, ROOT / "solutions") == []
    assert set(categories(problem)) >= set(CATEGORIES)


def test_gqa_edge_groups():
    problem = load("gqa")
    seen = [problem.sizes_of(json.loads(p.read_text())["input"]) for p in problem.test_files()
            if p.name.endswith("-edge.json")]
    assert any(s["h_k"] == 1 for s in seen)
    assert any(s["h_k"] * 2 == s["h_q"] for s in seen)
    assert any(s["h_q"] // s["h_k"] != s["h_k"] for s in seen)


@pytest.mark.slow
@pytest.mark.parametrize(("problem", "path", "data"), stored("soft", UNMASKED))
def test_soft_tests_separate_the_scales(problem, path, data):
    """An independent loop-over-heads attention agrees, and the wrong scales land far away."""
    expected = np.asarray(data["expected"])
    tol = tolerance(problem, expected)
    assert (np.abs(attention(problem, data["input"], "d_k") - expected) / tol).max() < 1
    for wrong in ("1", "d_model"):
        assert (np.abs(attention(problem, data["input"], wrong) - expected) / tol).max() > EXPOSE_MIN_TOLERANCES


@pytest.mark.slow
@pytest.mark.parametrize(("problem", "path", "data"), stored("soft"))
def test_soft_tests_expose_their_variants(problem, path, data):
    """Every problem: each variant a soft test's recipe names lands far beyond the tolerance."""
    recipe = next(r for r in load_recipes(problem) if r.file_name == path.name)
    expected = np.asarray(data["expected"])
    for variant in recipe.expose:
        assert separation(problem, data["input"], expected, variant) > EXPOSE_MIN_TOLERANCES, variant.name


def scores_and_hidden(problem, inputs: dict) -> tuple[np.ndarray, np.ndarray]:
    """Every head's scaled scores, batch items and heads first, and which keys the mask hides:
    causal hides u > t, window also u <= t - window, masked the keys its mask argument marks 1."""
    a = {k: np.asarray(v, dtype=np.float64) for k, v in inputs.items()}
    queries, keys = ("q", "k") if problem.slug == "masked" else ("X", "X")
    d_k = problem.dims(problem.sizes_of(inputs))["d_k"]

    def heads(x, name):  # (..., T, d_model) -> (..., h, T, d_k)
        M = x @ a[f"W_{name}"] + a[f"b_{name}"]
        return np.moveaxis(M.reshape(*M.shape[:-1], -1, d_k), -2, -3)

    S = heads(a[queries], "Q") @ np.swapaxes(heads(a[keys], "K"), -1, -2) / math.sqrt(d_k)
    if problem.slug == "causal":
        hidden = np.triu(np.ones(S.shape[-2:], dtype=bool), k=1)
    elif problem.slug == "window":
        offset = np.subtract.outer(np.arange(S.shape[-1]), np.arange(S.shape[-1]))  # t - u
        hidden = (offset < 0) | (offset >= inputs["window"])
    else:
        hidden = (a["mask"] == 1)[:, None]
    return S, np.broadcast_to(hidden, S.shape)


@pytest.mark.parametrize("slug", ["causal", "masked", "window"])
def test_a_stored_test_defeats_every_finite_mask_constant(slug):
    """GPT-2 puts -1e10 in place of the hidden scores, many add -1e9: any finite constant fails
    somewhere in the allowed range. A stored test has a row whose visible scores all lie below
    -1e12 while a hidden one lies above +1e12, so adding any C with |C| <= 1e12 to the hidden scores,
    or putting C in their place, leaves a hidden key on top."""
    problem = load(slug)
    found = {}
    for path in problem.test_files():
        S, hidden = scores_and_hidden(problem, read_json(path)["input"])
        visible_top = np.where(hidden, -np.inf, S).max(axis=-1)
        hidden_top = np.where(hidden, S, -np.inf).max(axis=-1)
        rows = (visible_top < -1e12) & (hidden_top > 1e12)
        if rows.any():
            found[path.name] = int(rows.sum())
    assert found, f"{slug}: no stored test has a row seeing only scores below -1e12 and hiding one above 1e12"


def test_the_mask_scores_are_computed_as_the_reference_does():
    """The independent scores above, checked on the samples: softmax over the visible ones, then the
    values and the output projection, gives the stored output."""
    for slug in ("causal", "masked", "window"):
        problem = load(slug)
        inputs = read_json(problem.tests_dir / "001-sample.json")["input"]
        S, hidden = scores_and_hidden(problem, inputs)
        S = np.where(hidden, -np.inf, S)
        weights = np.exp(S - S.max(axis=-1, keepdims=True))
        weights /= weights.sum(axis=-1, keepdims=True)
        a = {k: np.asarray(v, dtype=np.float64) for k, v in inputs.items()}
        values = a["v" if slug == "masked" else "X"] @ a["W_V"] + a["b_V"]
        d_k = problem.dims(problem.sizes_of(inputs))["d_k"]
        V = np.moveaxis(values.reshape(*values.shape[:-1], -1, d_k), -2, -3)
        H = np.moveaxis(weights @ V, -3, -2)
        out = H.reshape(*H.shape[:-2], -1) @ a["W_O"] + a["b_O"]
        assert np.allclose(out, read_json(problem.tests_dir / "001-sample.json")["expected"], rtol=1e-12, atol=1e-12)


FLOAT32 = [p for p in PROBLEMS if p.slug in {"gqa", "mha", "mqa", "causal", "masked", "mla", "gqa_decode", "window"}]


@pytest.mark.parametrize("problem", FLOAT32, ids=lambda p: p.slug)
def test_a_stored_test_rejects_float32(problem):
    """Each attention package bundles wrong_answer/float32*.py, and a stored test's recipe exposes
    the reference computing in float32: the stored test lands 1000 tolerances away or more."""
    assert sorted((ROOT / "solutions" / problem.slug / "wrong_answer").glob("float32*.py")), problem.slug
    exposing = [(recipe, variant) for recipe in load_recipes(problem) for variant in recipe.expose
                if variant.dtype == "float32" and not variant.multiply]
    assert exposing, f"{problem.slug}: no recipe exposes a float32 variant"
    for recipe, variant in exposing:
        data = read_json(problem.tests_dir / recipe.file_name)
        assert separation(problem, data["input"], np.asarray(data["expected"]), variant) >= EXPOSE_MIN_TOLERANCES


@pytest.mark.parametrize("problem", UNMASKED, ids=lambda p: p.slug)
def test_the_float32_test_has_soft_rows_with_large_scores(problem):
    """float32 shows in the softmax only where scores are large and rows soft: the test that exposes it
    has scores of 1e3 and more in magnitude (5e3 here) and no key taking most of a row's weight."""
    recipe = next(r for r in load_recipes(problem) if any(v.dtype == "float32" for v in r.expose))
    inputs = read_json(problem.tests_dir / recipe.file_name)["input"]
    d_k = problem.dims(problem.sizes_of(inputs))["d_k"]
    a = {k: np.asarray(v, dtype=np.float64) for k, v in inputs.items()}
    Q, K = (a["X"] @ a[f"W_{n}"] + a[f"b_{n}"] for n in "QK")
    h_q, h_k = Q.shape[1] // d_k, K.shape[1] // d_k
    S = np.stack([Q[:, i * d_k:(i + 1) * d_k] @ K[:, (i // (h_q // h_k)) * d_k:(i // (h_q // h_k) + 1) * d_k].T
                  for i in range(h_q)]) / math.sqrt(d_k)
    weights = np.exp(S - S.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    assert np.median(np.abs(S)) > 1e3
    assert np.median(weights.max(axis=-1)) < 0.5


def test_a_dtype_variant_reruns_the_reference_in_that_dtype():
    """Small integers are exact in float32 (the sample barely moves); the float32 test moves far."""
    gqa = load("gqa")
    variant = load_variants(gqa)["float32"]
    assert variant == Variant("float32", (), dtype="float32")
    sample = read_json(gqa.tests_dir / "001-sample.json")
    assert separation(gqa, sample["input"], np.asarray(sample["expected"]), variant) < 1
    half = Variant("half", (), dtype="float16")
    assert separation(gqa, sample["input"], np.asarray(sample["expected"]), half) > 1


def test_new_reproduces_a_stored_test_from_the_command_line():
    """The recipe of gqa's first soft test, typed as arguments, gives that test byte for byte."""
    problem = load("gqa")
    note = "small reals; a missing or wrong score scale moves the output far beyond tolerance"
    run = cli("gqa", "--new", "category=soft", f"note={note}", "T=4", "d_model=8", "h_q=4", "h_k=2",
              "scale.input=0.0015", "scale.weight=0.1", "scale.bias=0.1", 'expose=["no_scale", "sqrt_d_model"]')
    assert run.returncode == 0, run.stderr
    matches = [p for p in problem.test_files() if p.read_text() == run.stdout]
    assert len(matches) == 1 and matches[0].name.endswith("-soft.json")


def test_new_writes_out_file(tmp_path):
    out = tmp_path / "one.json"
    args = ["P4497", "--new", "category=edge", "T=2", "d_model=6", "h_q=3", "h_k=1", "values=int", "--out", str(out)]
    assert cli(*args).returncode == 0
    first = out.read_bytes()
    assert cli(*args).returncode == 0
    assert out.read_bytes() == first
    data = json.loads(first)
    assert list(data) == ["input", "expected", "category", "seed", "note"]
    assert list(data["input"]) == list(load("gqa").arg_names)
    assert all(type(v) is int for row in data["input"]["X"] for v in row)


@pytest.mark.parametrize(("args", "message"), [
    (["nosuch"], f"error: unknown problem 'nosuch': known problems are {KNOWN}"),
    (["gqa", "--new", "category=soft", "T=600", "d_model=8", "h_q=4", "h_k=2"],
     "error: --new: T = 600 is outside [1, 512]"),
    (["gqa", "--new", "category=soft", "T=4", "d_model=8", "h_q=3", "h_k=1"],
     "error: --new: rule 'h_q divides d_model' (d_model % h_q == 0) fails for T = 4, d_model = 8, h_q = 3, h_k = 1"),
    (["mqa", "--new", "category=soft", "T=4", "d_model=8", "num_heads=2", "colour=red"],
     "error: --new: unknown key 'colour' (allowed: category, decimals, distinct_rows, expose, id, input, limits, mask, "
     "note, outer, scalars, scale, sizes, values)"),
    (["mha", "--new", "category=soft", "T=4", "d_model=8", "num_heads=2", "scale=0.00001", 'expose=["no_scale"]'],
     None),  # too small to expose anything: refused after every attempt
    ([], "error: command line: say what to do: all, validate, or a problem (see python -m testcases --help)"),
])
def test_user_errors_are_one_line(args, message):
    run = cli(*args)
    assert run.returncode == 2
    assert run.stdout == "" and run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    if message is None:
        assert run.stderr.startswith("error: --new: no acceptable draw in 20 attempts; last: variant no_scale")
    else:
        assert run.stderr == message + "\n"


def package(folder: Path, recipes: str, reference: str | None = None) -> Path:
    """A copy of the gqa package with its own recipes (and reference) in a new folder; tests
    without an id are numbered in order."""
    folder.mkdir(parents=True)
    gqa = load("gqa")
    (folder / "problem.toml").write_text(gqa.toml_path.read_text())
    (folder / "reference.py").write_text(reference or gqa.reference_path.read_text())
    parts = recipes.split("[[test]]\n")
    numbered = parts[0] + "".join(f"[[test]]\n{'' if part.startswith('id =') else f'id = {n}' + chr(10)}{part}"
                                  for n, part in enumerate(parts[1:], 1))
    (folder / "recipes.toml").write_text(numbered)
    return folder


EDGE = '[[test]]\ncategory = "edge"\nsizes = {T = 2, d_model = 8, h_q = 4, h_k = 2}\n'


@pytest.mark.parametrize(("recipes", "rule"), first_fast([
    ('[[test]]\ncategory = "edge"\nsizes = {T = 600, d_model = 8, h_q = 4, h_k = 2}\n',
     "test 1: T = 600 is outside [1, 512]"),
    ('[[test]]\ncategory = "edge"\nsizes = {T = 2, d_model = 8, h_q = 4, h_k = 4}\n',
     "test 1: rule 'h_k < h_q' (h_k < h_q) fails for T = 2, d_model = 8, h_q = 4, h_k = 4"),
    ('[[test]]\ncategory = "edgy"\nsizes = {T = 2, d_model = 8, h_q = 4, h_k = 2}\n',
     "test 1: category must be one of sample, edge, soft, extreme, ties, large, got 'edgy'"),
    ('[[test]]\ncategory = "ties"\nsizes = {T = 2, d_model = 8, h_q = 4, h_k = 2}\ndistinct_rows = {X = 3}\n',
     "test 1: distinct_rows for X must be a whole number in [1, 2], got 3"),
    ('[[test]]\ncategory = "soft"\nsizes = {T = 2, d_model = 8, h_q = 4, h_k = 2}\nscale = {inputs = 0.1}\n',
     "test 1: scale: 'inputs' is neither an array argument nor a group (bias, input, weight)"),
    ('[[test]]\ncategory = "soft"\nsizes = {T = 2, d_model = 8, h_q = 4, h_k = 2}\nexpose = ["no_scale"]\n',
     "test 1: expose names unknown variant(s) ['no_scale'] (known: none)"),
    ('[[test]]\ncategory = "edge"\nsizes = {T = 2, d_model = 8, h_q = 4, h_k = 2}\n'
     '[[test]]\ncategory = "edge"\nnote = "again"\nsizes = {T = 2, d_model = 8, h_q = 4, h_k = 2}\n',
     "test 2: repeats test 1 (the same recipe gives the same test)"),
    ('[[test]]\ncategory = "sample"\n[test.input]\nX = [[2000]]\nW_Q = [[1]]\nb_Q = [0]\nW_K = [[1]]\nb_K = [0]\n'
     'W_V = [[1]]\nb_V = [0]\nh_q = 1\nh_k = 1\nW_O = [[1]]\nb_O = [0]\n',
     "test 1: input: X: d_model = 1 is outside [2, 256]"),
    (f'{EDGE}outer = {{X = "s"}}\n',
     "test 1: outer for X must be \"ROW COL\" (two sign vectors), each +, split or a lower-case name, optionally "
     "negated with -, got 's'"),
    (f'{EDGE}outer = {{b_K = "S"}}\n',
     "test 1: outer for b_K must be \"COL\" (one sign vector for a 1-D array), each +, split or a lower-case name, "
     "optionally negated with -, got 'S'"),
    (f'{EDGE}outer = {{X = "s r", W_K = "s -r"}}\n',
     "test 1: outer for W_K: vector 's' has length 8 here but 2 in X (a vector has one length in a test)"),
    (f'{EDGE}outer = {{X = "split s"}}\ndistinct_rows = {{X = 1}}\n',
     "test 1: outer for X: distinct_rows does not apply to an outer product"),
    (f'[variants.half]\ndtype = "float8"\n{EDGE}',
     "variants.half: dtype must be one of float16, float32, got 'float8'"),
    (f'[variants.half]\nby_sqrt = "d_k"\n{EDGE}',
     "variants.half: multiply must list arguments of grouped_query_attention, got []"),
    ('[[test]]\ncategory = "edge"\nsizes = {T = 2, d_model = 8, h_q = 4}\n',
     "test 1: sizes is missing h_k (give every size: T, d_model, h_q, h_k)"),
]))
def test_recipes_breaking_problem_toml_are_refused(tmp_path, recipes, rule):
    folder = package(tmp_path / "pkg", recipes)
    run = cli(str(folder), "--out-dir", str(tmp_path / "out"))
    where = f"{folder / 'recipes.toml'}"
    assert (run.returncode, run.stderr) == (2, f"error: {where}: {rule}\n")
    assert not (tmp_path / "out").exists()


def outer_recipe(problem, sizes: dict, **options):
    return parse_recipe(problem, {"category": "extreme", "sizes": sizes, **options}, "test 9", {})


def test_outer_products_share_their_sign_vectors():
    """X = "split s", W_Q = "s r", W_K = "s -r", b_K = "-r": every element at an end of its range,
    the same s and r in every argument, split's +1 then -1, the rest drawn as usual; a seed gives
    the same arrays again."""
    causal = load("causal")
    recipe = outer_recipe(causal, {"T": 7, "d_model": 8, "num_heads": 2}, values="int",
                          outer={"X": "split s", "W_Q": "s r", "W_K": "s -r", "b_K": "-r"})
    drawn = draw_input(causal, recipe, np.random.default_rng(5))
    assert draw_input(causal, recipe, np.random.default_rng(5)) == drawn
    assert draw_input(causal, recipe, np.random.default_rng(6)) != drawn
    X, W_Q, W_K, b_K = (np.asarray(drawn[name]) for name in ("X", "W_Q", "W_K", "b_K"))
    assert (X.shape, W_Q.shape, W_K.shape, b_K.shape) == ((7, 8), (8, 8), (8, 8), (8,))
    assert all(type(v) is int for v in np.ravel(drawn["X"]).tolist())
    s, sigma = np.sign(X[0]), np.sign(X[:, 0]) * np.sign(X[0, 0])
    split = int((sigma > 0).sum())
    assert 1 <= split < 7 and (sigma[:split] == 1).all() and (sigma[split:] == -1).all()
    assert (X == 1000 * np.outer(sigma, s)).all()
    r = np.sign(W_Q[0]) * s[0]
    assert (W_Q == 10 * np.outer(s, r)).all() and (W_K == -W_Q).all() and (b_K == -5 * r).all()
    assert len(set(np.ravel(drawn["W_V"]).tolist())) > 2  # not named: drawn as usual


def test_outer_products_repeat_over_leading_axes_at_the_ends_of_the_scaled_grid():
    """A 3-D array repeats its (row, column) matrix for every batch item; scale and decimals set the
    ends; "+" is all ones; an outer product cannot be a mask."""
    masked = load("masked")
    sizes = {"B": 3, "T_q": 4, "T_k": 5, "d_model": 6, "num_heads": 2}
    recipe = outer_recipe(masked, sizes, scale={"input": 0.00123}, decimals=3,
                          outer={"q": "+ s", "k": "split -s"})
    drawn = draw_input(masked, recipe, np.random.default_rng(0))
    q, k = np.asarray(drawn["q"]), np.asarray(drawn["k"])
    assert q.shape == (3, 4, 6) and k.shape == (3, 5, 6)
    assert set(np.abs(q).ravel().tolist()) == {1.23}
    assert (q == q[0, 0]).all()  # every row of every item: 1.23 * s
    sigma = np.sign(k[0, :, 0]) * -np.sign(q[0, 0, 0])
    assert (k == -np.outer(sigma, q[0, 0])).all() and sigma[0] == 1 and sigma[-1] == -1
    with pytest.raises(ProblemError, match="^test 9: outer for mask: a mask is drawn from its mask patterns"):
        outer_recipe(masked, sizes, outer={"mask": "s r"})


@pytest.mark.parametrize(("body", "reason"), [
    ("return [[float('inf')] * len(X[0])] * len(X)", "the expected output is not finite"),
    # A result that depends on the precision: what an ill-conditioned test looks like.
    ("return (np.ones((len(X), len(X[0]))) * (1 + 1e9 * np.finfo(self.dtype).eps)).tolist()",
     "float64 and longdouble differ by 0.222 of the tolerance at (0, 0)"),
])
def test_unacceptable_draws_are_redrawn_then_refused(tmp_path, body, reason):
    reference = ("import numpy as np\n\nclass Solution:\n    dtype = np.float64\n\n"
                 "    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):\n"
                 f"        {body}\n")
    folder = package(tmp_path / "pkg", '[[test]]\ncategory = "edge"\nsizes = {T = 2, d_model = 4, h_q = 2, h_k = 1}\n',
                     reference)
    run = cli(str(folder), "--out-dir", str(tmp_path / "out"))
    assert run.returncode == 2
    assert run.stderr == (f"error: {folder / 'recipes.toml'}: test 1: no acceptable draw in 20 attempts; "
                          f"last: {reason}\n")


def test_seeds_depend_on_the_recipe_not_its_position(tmp_path):
    """Adding a recipe in front leaves the other test byte-identical."""
    one = '[[test]]\ncategory = "edge"\nnote = "a"\nsizes = {T = 3, d_model = 4, h_q = 2, h_k = 1}\n'
    other = '[[test]]\ncategory = "soft"\nnote = "b"\nsizes = {T = 2, d_model = 4, h_q = 2, h_k = 1}\nscale = 0.01\n'
    first, second = package(tmp_path / "a", one), package(tmp_path / "b", other + one)
    assert cli(str(first), "--out-dir", str(tmp_path / "out1")).returncode == 0
    assert cli(str(second), "--out-dir", str(tmp_path / "out2")).returncode == 0
    alone = (tmp_path / "out1" / "gqa" / "tests" / "001-edge.json").read_bytes()
    assert (tmp_path / "out2" / "gqa" / "tests" / "002-edge.json").read_bytes() == alone


# gqa's recipes: the [[test]] table a new one would be, and the id it takes (both follow the file).
GQA_TABLE = len(load_recipes(load("gqa"))) + 1
GQA_NEXT = max(r.number for r in load_recipes(load("gqa"))) + 1


@pytest.mark.slow  # regenerates a whole problem
def test_adding_a_test_renames_no_other(tmp_path):
    """A new [[test]] gets the next id and every stored file keeps its name and bytes."""
    gqa = load("gqa")
    folder = tmp_path / "gqa"
    shutil.copytree(gqa.root, folder)
    recipes = folder / "recipes.toml"
    recipes.write_text(recipes.read_text() + f'\n[[test]]\nid = {GQA_NEXT}\ncategory = "edge"\nnote = "new"\n'
                       'sizes = {T = 3, d_model = 4, h_q = 2, h_k = 1}\n')
    run = cli(str(folder), "--out-dir", str(tmp_path / "out"))
    assert run.returncode == 0, run.stderr
    fresh = tmp_path / "out" / "gqa" / "tests"
    assert sorted(p.name for p in fresh.glob("*.json")) == sorted([p.name for p in gqa.test_files()]
                                                                  + [f"{GQA_NEXT:03d}-edge.json"])
    for stored in gqa.test_files():
        assert (fresh / stored.name).read_bytes() == stored.read_bytes()


@pytest.mark.parametrize(("extra", "message"), [
    ('[[test]]\ncategory = "edge"\nsizes = {T = 3, d_model = 4, h_q = 2, h_k = 1}\n',
     f"test {GQA_TABLE}: needs id = N, its stable file number (1 to 999; the next free one is {GQA_NEXT}), got None"),
    ('[[test]]\nid = 7\ncategory = "edge"\nsizes = {T = 3, d_model = 4, h_q = 2, h_k = 1}\n',
     f"test {GQA_TABLE}: id 7 is already used by [[test]] table 7 (the next free one is {GQA_NEXT})"),
])
def test_a_test_without_its_own_id_is_refused(tmp_path, extra, message):
    folder = tmp_path / "gqa"
    shutil.copytree(load("gqa").root, folder)
    (folder / "recipes.toml").write_text((folder / "recipes.toml").read_text() + "\n" + extra)
    run = cli(str(folder), "--out-dir", str(tmp_path / "out"))
    assert (run.returncode, run.stderr) == (2, f"error: {folder / 'recipes.toml'}: {message}\n")


def test_new_into_a_tests_folder_is_refused_with_the_supported_way(tmp_path):
    name = f"{GQA_NEXT:03d}-soft.json"
    target = ROOT / "problems" / "gqa" / "tests" / name
    run = cli("gqa", "--new", "category=soft", "T=4", "d_model=8", "h_q=4", "h_k=2", "--out", str(target))
    assert not target.exists()
    assert (run.returncode, run.stderr) == (2, f"error: problems/gqa/tests/{name}: a problem's tests/ folder "
                                               "holds only tests made "
                                               f"from its recipes.toml: add a [[test]] with id = {GQA_NEXT} to "
                                               "problems/gqa/recipes.toml and run make testcases\n")


def test_portable_exp_is_accurate_without_the_c_librarys_expl():
    """Stored expected outputs come from the long double reference; its exp must not be expl,
    whose last bits differ between CPUs. The replacement is checked here against exact rational
    arithmetic: within 4 long double ulps over the range softmax uses."""
    from fractions import Fraction

    from testcases.oracle import portable_exp

    xs = np.array([0.0, -1e-30, -0.25, -0.3465735902799726, -0.5, -1.0, -7.75, -30.5, -88.125, -700.5],
                  dtype=np.longdouble)
    got = portable_exp(xs)
    for x, value in zip(xs, got):
        exact = _exp_fraction(Fraction(float(x)))
        assert abs(_fraction(value) - exact) <= 4 * Fraction(float(np.finfo(np.longdouble).eps)) * exact, float(x)


def _fraction(value: np.longdouble):
    from fractions import Fraction

    mantissa, exponent = np.frexp(value)
    return Fraction(int(np.ldexp(mantissa, 64))) * Fraction(2) ** (int(exponent) - 64)


def _exp_fraction(x):
    """exp(x) for x <= 0 to far beyond long double precision: exp(x) = exp(x / 2**k) ** (2**k)."""
    from fractions import Fraction

    k = max(0, int(-x).bit_length() + 4)
    y = x / 2**k
    term, total = Fraction(1), Fraction(1)
    for n in range(1, 30):
        term = term * y / n
        total += term
    for _ in range(k):
        total = total * total
        shift = 256 - (total.numerator.bit_length() - total.denominator.bit_length())
        total = Fraction(round(total * 2**shift), 2**shift)  # keep 256 significant bits
    return total


def test_sample_block_rounds_real_outputs_only():
    """Token ids read as they are; reals get a rounded line beside the full precision."""
    ints = sample_block([("001-sample", {"category": "sample", "input": {"u": [0.5]}, "expected": [4, 2]})])
    reals = sample_block([("001-sample", {"category": "sample", "input": {"u": [0.5]}, "expected": [4.125, 2.0]})])
    assert "Rounded" not in ints and "[4,\n 2]" in ints
    assert "Rounded to 2 decimals for reading: `[4.12, 2.00]`." in reals


def test_outer_all_ones_along_axes_of_different_lengths():
    """"+" is all ones whatever its axis: W_Q's columns (d_model) and W_K's (h_k * d_k) may both use it
    (paged's cache heads once crashed the generator with a numpy traceback)."""
    run = cli("gqa", "--new", "category=extreme", "T=4", "d_model=8", "h_q=4", "h_k=2",
              "outer.W_Q=s +", "outer.W_K=s +")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert {abs(v) for row in data["input"]["W_Q"] + data["input"]["W_K"] for v in row} == {10.0}
    assert [len(set(row)) for row in data["input"]["W_K"]] == [1] * 8  # each row one sign: the column vector is +
