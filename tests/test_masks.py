"""Mask arguments and declared categories, the engine features a masked problem needs (issue 10).

A small masked row softmax, nothing like the shipped problems, is written into a temporary folder:
its generated masks must follow the recipe's patterns, every row must keep a visible element, the
validator must name a broken mask, and recipes.toml must declare the categories it adds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent

PROBLEM = """\
id = "MSM"
slug = "masksoftmax"
title = "Masked Row Softmax"
method = "masked_row_softmax"
time_limit_ms = 1000
memory_limit_mb = 256
output_shape = ["B", "R", "C"]

[tolerance]
abs = 1e-9
rel = 1e-9

[sizes.B]
min = 1
max = 4
description = "batch items"

[sizes.R]
min = 1
max = 40
description = "rows"

[sizes.C]
min = 1
max = 40
description = "columns"

[[args]]
name = "Z"
shape = ["B", "R", "C"]
range = [-10, 10]
group = "input"

[[args]]
name = "hide"
shape = ["B", "R", "C"]
range = [0, 1]
group = "mask"
mask_hidden = 1
"""

REFERENCE = """\
import numpy as np


class Solution:
    dtype = np.float64

    def masked_row_softmax(self, Z, hide):
        Z = np.asarray(Z, dtype=self.dtype)
        visible = np.asarray(hide) == 0
        Z = np.where(visible, Z, -np.inf)
        w = np.exp(Z - Z.max(axis=-1, keepdims=True))
        return (w / w.sum(axis=-1, keepdims=True)).tolist()
"""

RECIPES = """\
[categories]
padding = "trailing columns hidden per batch item"
lookahead = "column u hidden in row t when u > t"

[[test]]
id = 1
category = "sample"
[test.input]
Z = [[[1, 2], [3, 4]]]
hide = [[[0, 1], [0, 0]]]

[[test]]
id = 2
category = "padding"
sizes = {B = 4, R = 6, C = 30}
mask = "padding"

[[test]]
id = 3
category = "lookahead"
sizes = {B = 2, R = 30, C = 30}
mask = "lookahead"

[[test]]
id = 4
category = "edge"
sizes = {B = 3, R = 20, C = 20}
mask = ["padding", "lookahead"]

[[test]]
id = 5
category = "soft"
sizes = {B = 2, R = 40, C = 40}
scale = 0.1

[[test]]
id = 6
category = "extreme"
sizes = {B = 1, R = 5, C = 5}
mask = "none"
limits = 1.0

[[test]]
id = 7
category = "ties"
sizes = {B = 2, R = 8, C = 3}
values = "int"
distinct_rows = {Z = 2}

[[test]]
id = 8
category = "large"
sizes = {B = 4, R = 40, C = 40}
"""


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "testcases", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=1800)


def package(folder: Path, recipes: str = RECIPES) -> Path:
    root = folder / "masksoftmax"
    root.mkdir(parents=True, exist_ok=True)
    (root / "problem.toml").write_text(PROBLEM)
    (root / "reference.py").write_text(REFERENCE)
    (root / "recipes.toml").write_text(recipes)
    return root


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, dict]:
    root = package(tmp_path_factory.mktemp("masks"))
    run = cli(str(root))
    assert run.returncode == 0, run.stderr
    return {p.name: json.loads(p.read_text()) for p in sorted((root / "tests").glob("*.json"))}


def hidden(test: dict) -> np.ndarray:
    return np.asarray(test["input"]["hide"]) == 1


def test_declared_categories_name_the_files(made):
    assert list(made) == ["001-sample.json", "002-padding.json", "003-lookahead.json", "004-edge.json",
                          "005-soft.json", "006-extreme.json", "007-ties.json", "008-large.json"]


def test_masks_are_integers_with_a_visible_element_in_every_row(made):
    for name, test in made.items():
        values = np.ravel(test["input"]["hide"]).tolist()
        assert set(values) <= {0, 1} and all(type(v) is int for v in values), name
        assert not hidden(test).all(axis=-1).any(), name


def test_padding_hides_trailing_columns_per_batch_item(made):
    mask = hidden(made["002-padding.json"])
    lengths = []
    for item in mask:
        assert (item == item[0]).all()  # every row of an item hides the same columns
        visible = int((~item[0]).sum())
        assert visible >= 1 and (~item[0, :visible]).all() and item[0, visible:].all()
        lengths.append(visible)
    assert len(set(lengths)) > 1  # different lengths per batch item


def test_lookahead_hides_later_columns(made):
    mask = hidden(made["003-lookahead.json"])
    t, u = np.indices(mask.shape[1:])
    assert (mask == (u > t)).all()


def test_patterns_combine_as_a_union(made):
    mask = hidden(made["004-edge.json"])
    t, u = np.indices(mask.shape[1:])
    assert (mask[:, u > t]).all()  # lookahead's part
    assert any(item[0].any() and not (item == (u > t)).all() for item in mask)  # padding's part shows


def test_random_and_none(made):
    share = hidden(made["005-soft.json"]).mean()
    assert 0.3 < share < 0.6
    assert not hidden(made["006-extreme.json"]).any()


def test_ties_pool_rows_along_the_last_axis(made):
    rows = {tuple(r) for item in made["007-ties.json"]["input"]["Z"] for r in item}
    assert len(rows) == 2


def test_validator_names_a_broken_mask(made, tmp_path):
    root = package(tmp_path)
    test = json.loads(json.dumps(made["003-lookahead.json"]))
    test["input"]["hide"][1][4] = [1] * 30
    test["input"]["hide"][0][2][0] = 0.5
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(test))
    run = cli("validate", str(root), str(path))
    assert run.returncode == 1
    assert run.stderr.splitlines() == [
        f"{path}: hide[0][2][0]: 0.5 is not 0 or 1 (a mask holds integers)"]
    test["input"]["hide"][0][2][0] = 0
    path.write_text(json.dumps(test))
    run = cli("validate", str(root), str(path))
    assert run.stderr.splitlines() == [
        f"{path}: hide[1][4]: every element is 1, which hides it: each row of the last axis needs at least one "
        "visible element"]


@pytest.mark.parametrize(("change", "message"), [
    (('mask = "padding"', 'mask = "paddings"'),
     "test 2: mask for hide must be one of random, padding, lookahead, none or a list of them, got 'paddings'"),
    (('lookahead = "column u hidden in row t when u > t"\n', 'lookahead = "later columns"\nunused = "nothing"\n'),
     "category 'unused' is declared in [categories] but no test uses it"),
    (('padding = "trailing', 'Padding = "trailing'),
     "categories.Padding: a new category needs a lower-case name (a-z) other than sample, edge, soft, extreme, "
     "ties, large, and a description string"),
    (('category = "lookahead"', 'category = "causal"'),
     "test 3: category must be one of sample, edge, soft, extreme, ties, large, padding, lookahead, got 'causal'"),
])
def test_recipe_errors_are_one_line(tmp_path, change, message):
    root = package(tmp_path, RECIPES.replace(*change))
    run = cli(str(root))
    assert run.returncode == 2
    assert run.stderr == f"error: {root / 'recipes.toml'}: {message}\n"
