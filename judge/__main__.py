"""The program's entry point, above every layer: `serve` starts the web page, practice commands
(start, list, history, run, editorial, stress) go to the practice layer, everything else to the
judge, whose judgings of a user's file the practice layer enriches (hints, speed) and records."""

import os
import sys

from coach.cli import COMMANDS, enrich, record_report
from coach.cli import main as practise
from judge.cli import main


def _entry() -> int:
    if len(sys.argv) > 1 and sys.argv[1] in COMMANDS:
        return practise(sys.argv[1:])
    if len(sys.argv) > 1 and sys.argv[1] == "serve":  # the web page, above the practice layer
        from web.cli import main as serve

        return serve(sys.argv[2:])

    return main(on_report=record_report, enrich=enrich)


try:
    sys.exit(_entry())
except BrokenPipeError:  # `| head` closed the pipe: stop quietly, as other command-line tools do
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(1)
