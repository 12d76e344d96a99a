"""Judging a submission file on a problem's tests: runs, checks, verdicts, reports."""
