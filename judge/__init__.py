"""The judging engine: sandboxed runs, limits, the tolerance checker, verdicts and reports."""
