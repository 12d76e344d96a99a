"""Where a server of ours listens (both `serve` commands): said in one line before a URL that would
not work is printed, and the host as a URL names it."""

from __future__ import annotations

import socket
import sys


def cannot_bind(host: str, port: int) -> str | None:
    """Why the server could not listen on host:port, in one line, or None."""
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        return f"cannot serve on {host}:{port}: {exc.strerror} (choose another with --port)"
    return None


def can_listen(host: str, port: int) -> bool:
    """Whether host:port can be served; if not, the reason is printed as the command's error line."""
    unbound = cannot_bind(host, port)
    if unbound is not None:
        print(f"error: {unbound}", file=sys.stderr)
    return unbound is None


def url_host(host: str) -> str:
    """The host as a URL names it (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host else host
