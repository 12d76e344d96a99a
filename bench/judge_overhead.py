"""Judge overhead against the floor, measured side by side in one run (`make bench`).

The floor is one Python process that loads a problem's stored tests and calls the reference on
each: the least any judge could do. The judge is `python -m judge <reference> --problem <slug>`:
sandbox start, a fork per test, transfer, checking. Both are timed as whole commands (interpreter
start included), alternately, several rounds; the medians are compared. Two targets are shown:
issue 3's judge <= 1.3 x floor + 0.5 s (the exit status), and issue 8's goal, 1.3 x floor with
no constant slack (not reached yet: a fresh sandbox per submission and a fork per test cost
about 5 ms of CPU per run on these virtual machines). Machines here are shared and noisy, so
this is a benchmark that prints ratios, not a timed assertion in the test suite.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from problems import all_problems  # noqa: E402

ROUNDS = 5
FLOOR = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("reference", sys.argv[1])
module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)
method = getattr(module.Solution(), sys.argv[2])
for path in sys.argv[3:]:
    with open(path) as f:
        test = json.load(f)
    method(*test["input"].values())
"""


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=False, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> int:
    ok = True
    print(f"{'problem':<8} {'tests':>5} {'floor':>8} {'judge':>8} {'ratio':>6} {'per-test overhead':>18} {'bound':>8}  within"
          f"  <=1.3x")
    for problem in all_problems():
        tests = [str(p) for p in problem.test_files()]
        if not tests:
            continue
        floor_cmd = [sys.executable, "-c", FLOOR, str(problem.reference_path), problem.method, *tests]
        judge_cmd = [sys.executable, "-m", "judge", str(problem.reference_path), "--problem", problem.slug, "--json"]
        floors, judges = [], []
        for _ in range(ROUNDS):
            floors.append(timed(floor_cmd))
            judges.append(timed(judge_cmd))
        floor, judge = statistics.median(floors), statistics.median(judges)
        bound = 1.3 * floor + 0.5
        within = judge <= bound
        ok &= within
        print(f"{problem.slug:<8} {len(tests):>5} {floor:>7.2f}s {judge:>7.2f}s {judge / floor:>6.2f} "
              f"{(judge - floor) / len(tests) * 1000:>15.1f} ms {bound:>7.2f}s  {'yes' if within else 'NO':<6}"
              f"  {'yes' if judge <= 1.3 * floor else 'no'}")
    print(f"\nmedian of {ROUNDS} alternating rounds; bound = 1.3 x floor + 0.5 s (issue 3, the exit status); "
          "<=1.3x: issue 8's goal with no constant slack")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
