"""The class's commands, dispatched by `python -m judge` (judge/__main__.py):

    python -m judge serve --class DIR [--queue-file FILE [--run-wait S]] [--host H] [--port P] [--allow-host NAME]
    python -m judge worker --queue-file FILE [--threads N]
    python -m judge class add-users DIR users.csv
    python -m judge class token DIR NAME

The queue's URL may carry Redis's password: it is read from a file (--queue-file) or the
JUDGE_QUEUE environment variable, which `ps` does not show; --queue URL still works, with a
warning when the URL has a password. Every line printed shows the URL with the password masked.
An error a user can cause is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from classroom.judging import cores
from classroom.tryout import RUN_WAIT_S
from serving.listening import can_listen, url_host


class UsageError(Exception):
    pass


def _class_dir(value: str, create: bool = False) -> Path:
    """The class's folder (made 0700, its store 0600: a line for each narrowed one)."""
    from classroom.store import private_files

    folder = Path(value)
    if create:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not folder.is_dir():
        raise UsageError(f"{folder}: no such folder (the class's folder: its store and class.toml)")
    for line in private_files(folder.resolve()):
        print(f"note: {line}", file=sys.stderr)
    return folder.resolve()


def _queue_url(args) -> str | None:
    """The queue's URL: --queue-file, then --queue (warned about when it has a password), then
    $JUDGE_QUEUE; None when none is given."""
    from classroom.secret import has_password

    if args.queue_file is not None:
        try:
            url = args.queue_file.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"--queue-file {args.queue_file}: {getattr(exc, 'strerror', None) or exc}") from None
        if not url:
            raise UsageError(f"--queue-file {args.queue_file}: the file is empty (put redis://... in it)")
        return url
    if args.queue:
        if has_password(args.queue):
            print("warning: --queue puts Redis's password where other users of this machine see it (ps): "
                  "prefer --queue-file FILE or the JUDGE_QUEUE environment variable", file=sys.stderr)
        return args.queue
    return os.environ.get("JUDGE_QUEUE") or None


def _queue_options(parser: argparse.ArgumentParser, required: bool) -> None:
    parser.add_argument("--queue-file", type=Path, help="a file holding the queue's URL, redis://[:PASSWORD@]HOST:"
                        "PORT/N (or set JUDGE_QUEUE)" + ("" if required else "; default: judge in this process"))
    parser.add_argument("--queue", help="the queue's URL on the command line (ps shows it: prefer --queue-file)")


def serve(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m judge serve",
                                     description="Serve a class or a contest: accounts, submissions, scoreboard.")
    parser.add_argument("--class", dest="folder", required=True, help="the class's folder (created if missing)")
    _queue_options(parser, required=False)
    parser.add_argument("--workers", type=int, default=cores(), help="in-process workers (default: one per core)")
    parser.add_argument("--run-wait", type=float, default=RUN_WAIT_S, metavar="S",
                        help=f"with a queue: seconds a student's Run waits for a worker to take it, then one line "
                        f"says so (default {RUN_WAIT_S})")
    parser.add_argument("--host", default="127.0.0.1", help="default: 127.0.0.1 (0.0.0.0 for a class on a network)")
    parser.add_argument("--port", type=int, default=8000, help="default: 8000")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="a host name the server answers for besides localhost and --host (the class's domain "
                        "behind a proxy; repeatable; class.toml's hosts adds more)")
    parser.add_argument("--forwarded-allow-ips", default=None, metavar="IPS",
                        help="trust X-Forwarded-For from these proxy addresses (the sign-in throttle then counts "
                        "the real client); default: trust none")
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
        queue_url = _queue_url(args)
        factory = _judges(queue_url, args, folder)
    except (UsageError, ConfigError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not can_listen(args.host, args.port):
        return 2
    from classroom.secret import masked

    shown = url_host(args.host)
    judged = f"queue {masked(queue_url)}" if queue_url else "judging here"
    print(f"class {folder} on http://{shown}:{args.port}/ ({judged})", flush=True)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    proxy = {"proxy_headers": True, "forwarded_allow_ips": args.forwarded_allow_ips} if args.forwarded_allow_ips \
        else {"proxy_headers": False}
    try:
        app = create_app(folder, factory, host=args.host, port=args.port, names=args.allow_host)
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning", **proxy)
    except KeyboardInterrupt:
        pass
    return 0


def _judges(queue_url: str | None, args, folder: Path):
    """How submissions get judged: in this process, or on the queue."""
    if queue_url:
        if not 0 < args.run_wait <= 3600:
            raise UsageError("--run-wait: seconds, more than 0 and at most 3600")
        try:
            from classroom.remote import QueueError, RemoteJudges, connect
        except ImportError as exc:
            raise UsageError(f"the queue needs {exc.name}: run make judge, which installs it") from None

        try:
            queue = connect(queue_url)
        except QueueError as exc:
            raise UsageError(str(exc)) from None
        return lambda store, problems: RemoteJudges(store, problems, queue, args.run_wait)
    if args.workers < 1:
        raise UsageError("--workers: at least 1")
    from classroom.local import LocalJudges

    return lambda store, problems: LocalJudges(store, problems, args.workers, secrets=[folder])


def worker(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m judge worker",
                                     description="Judge a class's submissions from its queue, on this machine.")
    _queue_options(parser, required=True)
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
        url = _queue_url(args)
        if url is None:
            raise UsageError("give the queue: --queue-file FILE, or the JUDGE_QUEUE environment variable")
        queue = connect(url, heartbeat_ms=int(args.heartbeat_timeout * 1000))
        return run_worker(queue, args.threads)
    except (QueueError, UsageError) as exc:
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
    except (UsageError, AccountError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
