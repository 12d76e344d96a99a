"""What the practice layer adds to every judging of a user's file: a hint or the reference's speed
before it is printed, and a line in the history after. Kept apart from the practice commands so
that `python -m judge file.py` loads only this much of the layer (each import is start-up time)."""

from __future__ import annotations

import sys
from pathlib import Path

from coach import history
from coach.speed import speed
from grading.judgement import Report
from problems import ProblemError
from problems.bundled import SOLUTIONS
from sandbox.errors import MachineBusy, SandboxUnavailable


def enrich(report: Report, hint_level: int | None, lang: str = "en") -> None:
    """Before a judging is printed: a hint on WA when asked (its sentences in `lang`), the reference's
    speed on AC. Neither may cost the verdict: a hint that cannot be had says why."""
    if hint_level and report.verdict != "WA":  # said plainly, on the terminal as on the page
        from coach.hints import not_a_wrong_answer

        report.sections.append(not_a_wrong_answer(report, hint_level, lang))
    elif hint_level:
        from coach.hints import Hint, hint, words  # only asked for on a wrong answer

        try:
            report.sections.append(hint(report, hint_level, lang=lang))
        except (ProblemError, OSError, SandboxUnavailable, MachineBusy) as exc:
            report.sections.append(Hint(hint_level, "none", words(lang)["failed"].format(why=exc), lang=lang))
    if report.verdict == "AC" and (measured := speed(report)) is not None:
        report.sections.append(measured)


def kept(path: Path) -> bool:
    """Whether a judging of this file goes into the history: not a bundled submission (a setter
    judging solutions/ would otherwise mark the problem solved and unlock its editorial)."""
    return not Path(path).resolve().is_relative_to(SOLUTIONS.resolve())


def record_report(report: Report, path: Path, kind: str = "submit") -> None:
    """Keep a judging of the user's file in the history (kind: submit, hint or run), with the code
    it judged; a failure there costs one line, never the verdict (which has been printed already)."""
    if report.problem is None or not kept(path):
        return
    try:
        history.record(history.judging_of(report, kind), source=report.source or None)
    except (OSError, history.HistoryError) as exc:
        print(f"note: the history could not be written ({exc}); the verdict above stands", file=sys.stderr)
