"""The layers, from the imports: problems/ and sandbox/ at the bottom, grading/ on them, testcases/
and the practice layer (coach/) above, the servers' shared part (serving/: access, answers, the
problem page) above that, the web page (web/) and the class's server (classroom/, which may read
from web/) on it, the command (judge/) on top. No import runs back up a layer, none goes around in
a circle (function-local imports count too), and what runs inside the sandbox imports only the
standard library, numpy and itself."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ALLOWED = {  # a package may import itself and these
    "problems": set(),
    "sandbox": set(),  # it finds the checkout to hide by its path, not by importing it
    "grading": {"problems", "sandbox"},
    "testcases": {"problems", "sandbox", "grading"},
    "coach": {"problems", "sandbox", "grading", "testcases"},
    "serving": {"problems", "sandbox", "grading", "testcases", "coach"},  # both servers' access, answers, page
    "web": {"problems", "sandbox", "grading", "testcases", "coach", "serving"},
    "classroom": {"problems", "sandbox", "grading", "testcases", "coach", "serving"},  # not web: beside it
    "judge": {"problems", "sandbox", "grading", "testcases", "coach", "web", "classroom", "serving"},
}
INSIDE = ROOT / "sandbox" / "inside"
# The keys of the data a layer adds (JSON keys, fields, attributes): a layer below it names none of
# them, not even in a string, as grading once rendered the practice layer's report.hint['level'].
OWNED_KEYS = {
    "coach": {"hint", "speed", "ratio", "yours_ms", "reference_ms", "nonfinite", "bugs", "editorial"},
    "serving": {"event", "cancelled"},
    "web": {"max_queued"},
    "classroom": {"rejudged", "user_id", "login", "password", "standings"},
}


def _modules() -> dict[str, Path]:
    found = {}
    for package in ALLOWED:
        for path in (ROOT / package).rglob("*.py"):
            in_package = path.is_relative_to(ROOT / "problems") and path.parent != ROOT / "problems"
            if "__pycache__" in path.parts or in_package:
                continue  # a problem's reference.py is data the engines load by path, not a module of ours
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def _keys(source: str) -> set[str]:
    """What a module names as data: string constants, attributes, keyword arguments, class fields."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.keyword) and node.arg:
            names.add(node.arg)
        elif isinstance(node, ast.ClassDef):
            names |= {s.target.id for s in node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)}
    return names


def _ours(names: set[str], modules: dict[str, Path]) -> set[str]:
    return {name for name in names if name in modules}


def test_no_import_runs_back_up_a_layer():
    modules = _modules()
    wrong = []
    for module, path in modules.items():
        package = module.split(".")[0]
        for target in _ours(_imports(path), modules):
            if target.split(".")[0] not in ALLOWED[package] | {package}:
                wrong.append(f"{module} imports {target}")
    assert wrong == []


def test_no_layer_names_a_key_a_layer_above_it_owns():
    wrong = []
    for module, path in _modules().items():
        package = module.split(".")[0]
        names = _keys(path.read_text())
        for owner, keys in OWNED_KEYS.items():
            if owner != package and owner not in ALLOWED[package]:  # above it, or beside it
                wrong += [f"{module} names {key!r}, a key of {owner}/" for key in sorted(keys & names)]
    assert wrong == []


@pytest.mark.parametrize("source", [
    "lines.append(f\"Hint (level {report.hint['level']})\")",  # grading/report.py before issue 36
    "out = {'speed': 1}", "Report(speed=None)", "class Report:\n    hint: dict | None = None",
])
def test_a_key_is_seen_however_it_is_named(source):
    assert _keys(source) & OWNED_KEYS["coach"]


def test_no_circle():
    modules = _modules()
    edges = {m: _ours(_imports(p), modules) - {m} for m, p in modules.items()}
    edges = {m: {t for t in ts if not m.startswith(t + ".")} for m, ts in edges.items()}  # a package's own __init__
    state: dict[str, int] = {}
    circles = []

    def visit(module: str, stack: list[str]) -> None:
        state[module] = 1
        for target in sorted(edges.get(module, ())):
            if state.get(target) == 1:
                circles.append(" -> ".join(stack[stack.index(target):] + [target]))
            elif target not in state:
                visit(target, stack + [target])
        state[module] = 2

    for module in sorted(modules):
        if module not in state:
            visit(module, [module])
    assert circles == []


def test_the_sandbox_s_inside_imports_only_the_standard_library_numpy_and_itself():
    siblings = {p.stem for p in INSIDE.glob("*.py")}
    for path in INSIDE.glob("*.py"):
        for name in _imports(path):
            top = name.split(".")[0]
            assert top in sys.stdlib_module_names or top in siblings or top == "numpy" or top == "__future__", \
                f"{path.name} imports {name}"
