"""The program's entry point, above every layer: practice commands (start, list, history, run) go to
the practice layer, everything else to the judge, whose judgings of a user's file the practice
layer records."""

import sys

from judge.cli import main

if len(sys.argv) > 1 and sys.argv[1] in ("start", "list", "history", "run"):
    from coach.cli import main as practise

    sys.exit(practise(sys.argv[1:]))

from coach.cli import record_report  # noqa: E402

sys.exit(main(on_report=record_report))
