"""The problem page writes no English of its own outside LABELS (serving/static/labels.js), so the
page in 中文 says everything in Chinese: page.js and own_input.js are scanned for prose in their
string literals (two Latin words in a row, or a word between HTML tags), which must come from LABELS."""

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "serving" / "static"

# "..." or '...' strings and `...` templates (a template's ${...} taken out, nested templates included)
LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')


def literals(source: str) -> list[tuple[int, str]]:
    """Each string literal's line and text, the comments left out."""
    found = []
    for number, line in enumerate(source.splitlines(), 1):
        code = re.sub(r"^\s*//.*$|\s//\s.*$", "", line)
        for piece in re.findall(r"`[^`]*`", code):  # a template: its ${...} are code, not words
            found.append((number, re.sub(r"\$\{[^{}]*(\{[^{}]*\}[^{}]*)*\}", " ", piece[1:-1])))
        found += [(number, m[1:-1]) for m in LITERAL.findall(re.sub(r"`[^`]*`", "", code))]
    return found


def prose(text: str) -> list[str]:
    """The words a user would read in this literal: text between tags, and Latin word pairs."""
    shown = re.sub(r"<[^<>]*>", "\n", text)
    if text == "use strict":  # the one directive a script begins with
        return []
    words = re.findall(r"(?<![\w-])[A-Za-z]{2,}(?: [A-Za-z]{2,})+(?![\w-])", shown)  # a-b c-d: class names
    if "<" in text:  # HTML: a single word between tags is shown too
        words += [w for w in re.findall(r">\s*([A-Za-z]{3,})\s*<", text)]
    return words


def english_outside_labels(name: str) -> list[str]:
    """Each line of `name` that writes English prose not taken from LABELS."""
    return [f"{name}:{n}: {text!r}" for n, text in literals((STATIC / name).read_text()) if prose(text)]


def test_the_page_writes_no_english_of_its_own():
    assert english_outside_labels("page.js") == []


def test_the_own_input_editor_writes_no_english_of_its_own():
    assert english_outside_labels("own_input.js") == []


def test_the_scan_finds_the_english_it_is_meant_to_find(tmp_path, monkeypatch):
    """The scan is not blind: the strings the review found in the page before LABELS held them."""
    (tmp_path / "old.js").write_text(
        'const STATES = {queued: "queued: waiting for a judge", judging: "judging"};\n'
        '  return `<table><tr><th>first mismatch</th><td>${esc(m.position)}</td></tr>` +\n'
        '    `<th>when</th><th>${w.kind}</th>`;\n'
        '  $("x").textContent = W().trying;  // a comment in English is not shown\n'
        '  fetch(path, {credentials: "same-origin", method: "POST"});\n')
    monkeypatch.setattr(__import__(__name__), "STATIC", tmp_path)
    assert english_outside_labels("old.js") == [
        "old.js:1: 'queued: waiting for a judge'",
        "old.js:2: '<table><tr><th>first mismatch</th><td> </td></tr>'",
        "old.js:3: '<th>when</th><th> </th>'",
    ]
