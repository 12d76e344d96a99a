"""Reading a stored test (problems/testfile.py): orjson where it can tell, json's reading otherwise,
so what a file comes to and what a broken one is told are json's (test_decoder's, the validator's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from problems import ProblemError, all_problems, load, read_test, testfile

GQA = load("gqa")
BIG = 123456789012345678901234567890  # past 64 bits: orjson makes a float of it, json keeps the int


def _json_reading(path: Path) -> object:
    """What the file came to before orjson: test_decoder on its text."""
    return testfile.test_decoder(path).decode(path.read_bytes().decode("utf-8"))


def _outcome(read, path: Path):
    try:
        return "value", read(path)
    except ProblemError as exc:
        return "ProblemError", str(exc)
    except ValueError as exc:  # json.JSONDecodeError, UnicodeDecodeError
        return "not JSON", str(exc)


@pytest.mark.parametrize("problem", all_problems(), ids=lambda p: p.slug)
def test_every_stored_test_reads_as_json_reads_it(problem):
    for path in problem.test_files():
        case = read_test(problem, path)
        data = _json_reading(path)
        assert (repr(case.input), repr(case.expected)) == (repr(data["input"]), repr(data["expected"])), path


SAMPLE = json.loads((GQA.tests_dir / "001-sample.json").read_text())
SAMPLE_TEXT = json.dumps(SAMPLE)


@pytest.mark.parametrize("text", [
    SAMPLE_TEXT,
    SAMPLE_TEXT[:-1] + ', "expected": [[1.0]]}',                      # a key twice at the top
    SAMPLE_TEXT.replace('"input": {', '"input": {"X": [[1.0]], ', 1),  # a key twice in 'input'
    SAMPLE_TEXT[:-1] + ', "note": "a \\": b", "meta": {"k": 1}}',      # '":' inside a string
    SAMPLE_TEXT[:-1] + ', "meta": {"k": 1, "k": 2}}',                 # a key twice, one level down
    SAMPLE_TEXT[:-1] + ', "meta": [{"k": 1, "k": 2}]}',               # ... inside an array
    SAMPLE_TEXT[:-1] + f', "seed": {BIG}}}',                          # an int past 64 bits
    SAMPLE_TEXT[:-1] + f', "meta": {{"seed": {BIG}}}}}',
    SAMPLE_TEXT[:-1] + ', "note": NaN}',                              # json reads NaN, orjson refuses it
    SAMPLE_TEXT.replace('"expected": [[', '"expected": [[Infinity, ', 1),
    SAMPLE_TEXT.replace(": ", " :\n\t"),                              # spaces before a key's colon
    "\ufeff" + SAMPLE_TEXT,                                           # a BOM: json refuses it
    SAMPLE_TEXT + "]",
    '{"input": {',
])
def test_a_file_reads_as_json_reads_it(tmp_path, text):
    path = tmp_path / "001-sample.json"
    path.write_text(text, encoding="utf-8")
    got, want = _outcome(lambda p: read_test(GQA, p), path), _outcome(_json_reading, path)
    if want[0] == "value":
        assert got[0] == "value", got
        case = got[1]
        assert (repr(case.input), repr(case.expected), repr(case.meta)) == (
            repr(want[1]["input"]), repr(want[1]["expected"]),
            repr({k: v for k, v in want[1].items() if k not in ("input", "expected")}))
    elif want[0] == "ProblemError":
        assert got == want
    else:
        assert got == ("ProblemError", f"{path}: not valid JSON ({want[1]})")


def test_a_file_that_is_not_utf8_is_one_line(tmp_path):
    path = tmp_path / "001-sample.json"
    path.write_bytes(b'{"input": "\xff"}')
    with pytest.raises(ProblemError, match=r"001-sample.json: not valid JSON \('utf-8' codec can't decode"):
        read_test(GQA, path)
