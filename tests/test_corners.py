"""The corners of a package's constraints (testcases/corners.py): the largest legal inputs in each
direction, and whether a stored test reaches each, through `python -m testcases corners`."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOFTMAX = ROOT / "tests" / "newproblem" / "softmax"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "testcases", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)


def test_a_product_bound_gives_one_corner_per_shape(tmp_path):
    package = tmp_path / "softmax"
    shutil.copytree(SOFTMAX, package)
    toml = package / "problem.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace("[[args]]", '[[rules]]\nexpr = "R * C <= 4096"\ntext = "R * C is at most 4096"\n'
                                 'text_zh = "R * C 不超过 4096"\n\n[[args]]', 1), encoding="utf-8")
    for stale in (package / "tests").glob("*.json"):  # the copy's tests may break the new rule
        stale.unlink()
    listed = run("corners", str(package))
    # R and C from their ends, powers of two and halvings of 300; no corner exceeds another in both
    corners = ["R=16 C=256", "R=32 C=128", "R=64 C=64", "R=128 C=32", "R=256 C=16", "R=37 C=75", "R=75 C=37",
               "R=9 C=300", "R=18 C=150", "R=150 C=18", "R=300 C=9"]
    assert listed.stdout.splitlines() == [
        "softmax: 11 corners (time limit 1000 ms, memory limit 256 MiB)",
        *(f"  {corner:60} reached by no stored test" for corner in corners)]
    assert (listed.returncode, listed.stderr) == (1, "softmax: 11 corner(s) not covered\n")
