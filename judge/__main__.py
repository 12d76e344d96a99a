"""The program's entry point, above every layer: `serve` starts the web page, practice commands
(start, list, history, run, editorial, stress) go to the practice layer, everything else to the
judge, whose judgings of a user's file the practice layer enriches (hints, speed) and records.
Each route imports only what it needs: the judge's start-up time is part of every verdict."""

import os
import sys

# The judge's own numpy only compares and copies arrays. OpenBLAS would otherwise start a thread
# per core when numpy loads, and those spin for ~60 ms of CPU (measured: user time 0.21 s for a
# 0.09 s import), taken from the sandbox working on the other core at that moment.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _entry() -> int:
    from coach import COMMANDS

    if len(sys.argv) > 1 and sys.argv[1] in COMMANDS:
        from coach.cli import main as practise

        return practise(sys.argv[1:])
    if len(sys.argv) > 1 and sys.argv[1] == "serve":  # the web page, above the practice layer
        from web.cli import main as serve

        return serve(sys.argv[2:])
    launched = _launched_early(sys.argv[1:])
    from judge.cli import main

    _leave(main(on_report=_record, enrich=_enrich, launched=launched))


def _launched_early(argv: list[str]):
    """The usual form, `python -m judge FILE [options]`: the sandbox is launched before the command
    line is parsed (the fork server's boot is what a judging waits for; argparse and the CLI's
    imports took ~7 ms before it). The CLI takes it over, or closes it when it refuses the line
    (judge/cli.py, main); anything that stops the launch here is met again, and said, there."""
    if not argv or argv[0].startswith("-") or not argv[0].endswith(".py") or not os.path.isfile(argv[0]) \
            or any(a in ("--bundled", "-h", "--help") for a in argv):
        return None
    from judge.sandbox import submission_sandbox

    sandbox = submission_sandbox(argv[0])
    try:
        sandbox.launch()
        sandbox.compile_early(argv[0])
    except Exception:
        sandbox.close()
        return None
    except BaseException:
        sandbox.close()
        raise
    return sandbox


def _enrich(report, hint_level):  # the practice layer is imported once a judging is done: the judge's
    from coach.record import enrich  # sandbox boots first, not after the practice layer

    enrich(report, hint_level)


def _leave(status: int) -> None:
    """End a judging without the interpreter's teardown: with numpy loaded it takes ~15 ms, paid
    after every verdict is printed, while the caller (make, a script, the bench) waits. Every file
    the judging writes (the history database) is closed by now; what is left is flushed here."""
    sys.stdout.flush()  # a closed pipe raises here, as it would at exit: handled below
    sys.stderr.flush()
    os._exit(status)


def _record(report, path):
    from coach.record import record_report

    record_report(report, path)


try:
    sys.exit(_entry())
except KeyboardInterrupt:  # before the command took over its own Ctrl-C (which says the same)
    print("interrupted", file=sys.stderr)
    os._exit(130)
except BrokenPipeError:  # `| head` closed the pipe: stop quietly, as other command-line tools do
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(1)
