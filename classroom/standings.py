"""Statistics and the scoreboard, from the stored submissions alone (students' only: an admin's
trial runs count for neither).

Per problem: Tried (students with a submission), Accepted (students with an AC), solve rate.
The ICPC scoreboard: problems solved, then penalty = for each solved problem the minutes from the
start to its first AC plus 20 for each rejected submission before it; a compile error (CE) and a
judging error (JE) are not counted as attempts, nor is anything submitted after the first AC. A
frozen board (the last `freeze_minutes`) counts for students only what was submitted before the
freeze; later submissions show as pending."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

PENALTY_MINUTES = 20
NOT_ATTEMPTS = ("CE", "JE")


def problem_stats(rows: Iterable[Mapping[str, Any]], slugs: Iterable[str]) -> dict[str, dict]:
    tried: dict[str, set] = {s: set() for s in slugs}
    accepted: dict[str, set] = {s: set() for s in tried}
    for row in rows:
        if row["problem"] in tried:
            tried[row["problem"]].add(row["user_id"])
            if row["status"] == "done" and row["verdict"] == "AC":
                accepted[row["problem"]].add(row["user_id"])
    return {s: {"tried": len(tried[s]), "accepted": len(accepted[s]),
                "solve_rate": round(len(accepted[s]) / len(tried[s]), 4) if tried[s] else None} for s in tried}


def scoreboard(rows: Iterable[Mapping[str, Any]], slugs: list[str], start: float, end: float | None,
               freeze_at: float | None) -> list[dict]:
    """Rows ranked: solved (more first), penalty (less first), the time of the last AC that counted
    (earlier first); equal on all three, the same rank, listed by name. Submissions before `start`
    or from `end` on do not count."""
    cells: dict[tuple[int, str], dict] = {}
    names: dict[int, str] = {}
    for row in rows:
        if row["problem"] not in slugs or row["created"] < start or (end is not None and row["created"] >= end):
            continue
        names[row["user_id"]] = row["user_name"]
        cell = cells.setdefault((row["user_id"], row["problem"]),
                                {"solved": False, "rejected": 0, "minutes": None, "pending": 0, "at": None})
        if cell["solved"]:
            continue
        if freeze_at is not None and row["created"] >= freeze_at or row["status"] != "done":
            cell["pending"] += 1
        elif row["verdict"] == "AC":
            cell.update(solved=True, minutes=int((row["created"] - start) // 60), at=row["created"])
        elif row["verdict"] not in NOT_ATTEMPTS:
            cell["rejected"] += 1
    board: list[dict[str, Any]] = []
    for user_id, name in names.items():
        problems = {}
        solved, penalty, last = 0, 0, 0.0
        for slug in slugs:
            if (user_id, slug) not in cells:
                continue
            cell = cells[(user_id, slug)]
            problems[slug] = {"solved": cell["solved"], "rejected": cell["rejected"], "minutes": cell["minutes"],
                              "pending": cell["pending"]}
            if cell["solved"]:
                solved += 1
                penalty += cell["minutes"] + PENALTY_MINUTES * cell["rejected"]
                last = max(last, cell["at"])
        board.append({"user": name, "solved": solved, "penalty": penalty, "problems": problems, "_last": last})
    order = lambda r: (-r["solved"], r["penalty"], r["_last"])  # noqa: E731
    board.sort(key=lambda r: (*order(r), r["user"]))
    for place, row in enumerate(board, start=1):  # a tie shares its rank (1, 2, 2, 4): the name orders, not ranks
        row["rank"] = board[place - 2]["rank"] if place > 1 and order(board[place - 2]) == order(row) else place
    for row in board:
        del row["_last"]
    return board
