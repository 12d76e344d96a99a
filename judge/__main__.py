"""`python -m judge`: the program's one entry point, above every layer. A command goes where
judge/routes.py's table says (the practice layer, the web page, a class's server); anything else
is a judging (judge/cli.py)."""

import os
import signal
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # the judge's own numpy only compares arrays: one thread


def _interrupt(signum, frame):
    raise KeyboardInterrupt


# Ctrl-C, `kill` and the web page's Cancel stop a judging cleanly, even when a shell started this
# process with SIGINT ignored (as it does for a command in the background).
signal.signal(signal.SIGINT, _interrupt)
signal.signal(signal.SIGTERM, _interrupt)


def main(argv: list[str]) -> int:
    from judge.routes import route, run

    command = route(argv)
    if command is not None:
        return run(command, argv)
    from judge.cli import main as judge

    return judge(argv)


try:
    sys.exit(main(sys.argv[1:]))
except KeyboardInterrupt:  # before a command took over its own Ctrl-C (which says the same)
    print("interrupted", file=sys.stderr)
    sys.exit(130)
except BrokenPipeError:  # `| head` closed the pipe: stop quietly, as other command-line tools do
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(1)
