"""`python -m judge serve` (`make serve`): the web page on this machine, as Jupyter serves one.

The token is kept in $JUDGE_HOME/web-token (mode 0600), so a restart keeps the open tabs working;
`--new-token` rotates it. Another token can come from a file (`--token-file`) or the environment
(`JUDGE_TOKEN`), where `ps` does not show it, as it shows `--token`. Ctrl-C or SIGTERM stops the
server within about two seconds: no new judging starts, every running one is interrupted, the
pages' event streams end, and nothing is left running.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import threading
from pathlib import Path

from serving.listening import can_listen, url_host

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
GRACEFUL_S = 2  # what uvicorn grants a connection that is still open at shutdown


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m judge serve",
                                     description="Serve the practice web page on this machine.")
    parser.add_argument("--port", type=int, default=8000, help="default: 8000")
    parser.add_argument("--host", default="127.0.0.1",
                        help="default: 127.0.0.1 (this machine only); another address lets others run code here")
    parser.add_argument("--token-file", type=Path, help="read the access token from this file")
    parser.add_argument("--token", help="the access token (visible to other users in ps: prefer --token-file or "
                        "the JUDGE_TOKEN environment variable)")
    parser.add_argument("--new-token", action="store_true",
                        help="replace the kept token ($JUDGE_HOME/web-token) with a new one: open tabs lose access")
    parser.add_argument("--practice", type=Path, default=None,
                        help="the folder of your files, shared with the terminal (default: the checkout's practice/)")
    args = parser.parse_args(argv)
    try:
        import uvicorn

        from web.app import create_app
    except ImportError as exc:
        print(f"error: the web page needs {exc.name}: run make serve, which installs it", file=sys.stderr)
        return 2
    from coach.home import judge_home
    from serving.access import TokenError, check_strength, read_token_file, stored_token

    token = None
    try:
        if args.token_file is not None:
            token = read_token_file(args.token_file)
        elif args.token is not None:
            token = check_strength(args.token, "--token")
            print("warning: --token is visible to other users of this machine (ps): prefer --token-file or "
                  "the JUDGE_TOKEN environment variable", file=sys.stderr)
        elif os.environ.get("JUDGE_TOKEN"):
            token = check_strength(os.environ["JUDGE_TOKEN"], "JUDGE_TOKEN")
    except TokenError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not can_listen(args.host, args.port):
        return 2
    if token is None:
        try:
            token, _ = stored_token(judge_home(), rotate=args.new_token)
        except OSError as exc:
            print(f"error: the token cannot be kept in {judge_home()}: {exc.strerror}", file=sys.stderr)
            return 2
    if args.host not in LOOPBACK_HOSTS:
        print(f"warning: serving on {args.host}: anyone who can reach it and has the token can run code on this "
              "machine, and the traffic is plain HTTP: the token and your code cross the network unencrypted. "
              f"Prefer the default 127.0.0.1 and an SSH tunnel from the other machine: "
              f"ssh -L {args.port}:127.0.0.1:{args.port} {socket.gethostname()}", file=sys.stderr)
    shown_host = url_host(args.host)
    app = create_app(token, practice=args.practice, host=args.host, port=args.port)
    print(f"http://{shown_host}:{args.port}/?token={token}", flush=True)

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            # no new judging, the running ones interrupted, the streams end; in a thread of its own,
            # since the signal may land while this one holds the queue's lock
            threading.Thread(target=app.state.shutdown, name="shutdown", daemon=True).start()
            super().handle_exit(sig, frame)

    try:
        Server(uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                              timeout_graceful_shutdown=GRACEFUL_S)).run()
    except KeyboardInterrupt:  # uvicorn raises the signal again once it has stopped (or it came before)
        app.state.shutdown()
    return 0

