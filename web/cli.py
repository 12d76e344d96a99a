"""`python -m judge serve` (`make serve`): the web page on this machine, as Jupyter serves one."""

from __future__ import annotations

import argparse
import secrets
import socket
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m judge serve",
                                     description="Serve the practice web page on this machine.")
    parser.add_argument("--port", type=int, default=8000, help="default: 8000")
    parser.add_argument("--host", default="127.0.0.1",
                        help="default: 127.0.0.1 (this machine only); another address lets others run code here")
    parser.add_argument("--token", help="the access token (default: a new random one)")
    parser.add_argument("--practice", type=Path, default=Path("practice"),
                        help="the folder of your files, shared with the terminal (default: practice/)")
    args = parser.parse_args(argv)
    try:
        import uvicorn

        from web.app import create_app
    except ImportError as exc:
        print(f"error: the web page needs {exc.name}: run make serve, which installs it", file=sys.stderr)
        return 2
    try:  # say so in one line, before printing a URL that would not work
        with socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((args.host, args.port))
    except OSError as exc:
        print(f"error: cannot serve on {args.host}:{args.port}: {exc.strerror} (choose another with --port)",
              file=sys.stderr)
        return 2
    token = args.token or secrets.token_urlsafe(24)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: serving on {args.host}: anyone who can reach it and has the token can run code on "
              "this machine", file=sys.stderr)
    shown_host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"http://{shown_host}:{args.port}/?token={token}", flush=True)
    try:
        uvicorn.run(create_app(token, practice=args.practice), host=args.host, port=args.port, log_level="warning")
    except KeyboardInterrupt:
        pass
    return 0
