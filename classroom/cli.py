"""The class's commands, dispatched by `python -m judge` (judge/__main__.py):

    python -m judge serve --class DIR [--queue redis://HOST:PORT/N] [--host H] [--port P]
    python -m judge worker --queue redis://HOST:PORT/N [--threads N]
    python -m judge class add-users DIR users.csv
    python -m judge class token DIR NAME

An error a user can cause is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from classroom.judging import cores
from web.cli import cannot_bind, url_host


class UsageError(Exception):
    pass


def _class_dir(value: str, create: bool = False) -> Path:
    folder = Path(value)
    if create:
        folder.mkdir(parents=True, exist_ok=True)
    if not folder.is_dir():
        raise UsageError(f"{folder}: no such folder (the class's folder: its store and class.toml)")
    return folder.resolve()


def serve(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m judge serve",
                                     description="Serve a class or a contest: accounts, submissions, scoreboard.")
    parser.add_argument("--class", dest="folder", required=True, help="the class's folder (created if missing)")
    parser.add_argument("--queue", help="redis://HOST:PORT/N: judge on workers that read this queue (python -m judge "
                        "worker); default: in this process, one worker per core")
    parser.add_argument("--workers", type=int, default=cores(), help="in-process workers (default: one per core)")
    parser.add_argument("--host", default="127.0.0.1", help="default: 127.0.0.1 (0.0.0.0 for a class on a network)")
    parser.add_argument("--port", type=int, default=8000, help="default: 8000")
    args = parser.parse_args(argv)
    try:
        import uvicorn

        from classroom.app import create_app
        from classroom.config import ConfigError, class_problems, load_config
    except ImportError as exc:
        print(f"error: the class server needs {exc.name}: run make serve-class, which installs it", file=sys.stderr)
        return 2
    try:
        folder = _class_dir(args.folder, create=True)
        problems_ok = class_problems(load_config(folder))
        if not problems_ok:
            raise UsageError("no problem to serve")
        factory = _judges(args, folder)
    except (UsageError, ConfigError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    unbound = cannot_bind(args.host, args.port)
    if unbound is not None:
        print(f"error: {unbound}", file=sys.stderr)
        return 2
    shown = url_host(args.host)
    print(f"class {folder} on http://{shown}:{args.port}/ ({'queue ' + args.queue if args.queue else 'judging here'})",
          flush=True)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        uvicorn.run(create_app(folder, factory), host=args.host, port=args.port, log_level="warning")
    except KeyboardInterrupt:
        pass
    return 0


def _judges(args, folder: Path):
    """How submissions get judged: in this process, or on the queue."""
    if args.queue:
        try:
            from classroom.remote import QueueError, RemoteJudges, connect
        except ImportError as exc:
            raise UsageError(f"the queue needs {exc.name}: run make judge, which installs it") from None

        try:
            queue = connect(args.queue)
        except QueueError as exc:
            raise UsageError(str(exc)) from None
        return lambda store, problems: RemoteJudges(store, problems, queue)
    if args.workers < 1:
        raise UsageError("--workers: at least 1")
    from classroom.local import LocalJudges

    return lambda store, problems: LocalJudges(store, problems, args.workers, secrets=[folder])


def worker(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m judge worker",
                                     description="Judge a class's submissions from its queue, on this machine.")
    parser.add_argument("--queue", required=True, help="redis://HOST:PORT/N, as the server's --queue")
    parser.add_argument("--threads", type=int, default=cores(), help="judgings at once (default: one per core)")
    parser.add_argument("--heartbeat-timeout", type=float, default=15.0,
                        help="seconds without a word from a worker before its judgings go to another (default 15)")
    args = parser.parse_args(argv)
    if args.threads < 1 or args.heartbeat_timeout <= 0:
        print("error: --threads and --heartbeat-timeout must be positive", file=sys.stderr)
        return 2
    try:
        from classroom.remote import QueueError, connect, run_worker
    except ImportError as exc:
        print(f"error: the worker needs {exc.name}: run make judge, which installs it", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        queue = connect(args.queue, heartbeat_ms=int(args.heartbeat_timeout * 1000))
        return run_worker(queue, args.threads)
    except QueueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def manage(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m judge class", description="Manage a class's accounts.")
    commands = parser.add_subparsers(dest="command", required=True)
    add = commands.add_parser("add-users", help="add the users of a CSV (name,email[,role]); prints their passwords")
    add.add_argument("folder", help="the class's folder (created if missing)")
    add.add_argument("csv", type=Path)
    token = commands.add_parser("token", help="a new API token for a user (the old one stops working)")
    token.add_argument("folder")
    token.add_argument("name")
    args = parser.parse_args(argv)
    from classroom.accounts import AccountError, add_users
    from classroom.store import Store

    try:
        if args.command == "add-users":
            store = Store(_class_dir(args.folder, create=True))
            added = add_users(store, args.csv)
            print("name,email,role,password")
            for name, email, role, password in added:
                print(f"{name},{email},{role},{password if password else '(exists: unchanged)'}")
            print(f"{sum(p is not None for *_, p in added)} added; each password is shown only here",
                  file=sys.stderr)
        else:
            store = Store(_class_dir(args.folder))
            row = store.user_row(args.name)
            if row is None:
                raise UsageError(f"no user {args.name!r} in {args.folder}")
            print(store.new_token(row["id"]))
    except (UsageError, AccountError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
