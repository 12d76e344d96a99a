"""Who may talk to a server of ours (the practice page's, web/, and the class's, classroom/), and
what every answer carries (docs/web.md, docs/classroom.md).

Before any routing, every request passes `Guard`: its Host must name this server (localhost,
127.0.0.1, [::1] or the --host given, with the port, and any name the server adds), else 421, so a
DNS-rebinding page learns nothing. With a token (the practice server's) it must then carry the token
in the URL once, or after that the session cookie, else 403, the same answer for every path, so
nobody without the token learns which routes exist. A token in the URL sets the cookie and answers
303 to the same URL without it, so the token leaves the address bar, the history and any Referer.
Every answer carries the security headers below, and anything but the static files is never cached
(a page holds a CSRF token, the API's answers the user's code). Errors are an HTML page for pages,
JSON for the API (serving/answers.py).

The practice cookie holds a session secret of this process, not the token: browsers send
127.0.0.1's cookies to every port, so another local server may see it; it grants nothing once this
server restarts and never reveals the token. The token itself is kept under $JUDGE_HOME (mode
0600): the URL the server prints stays the same across restarts. A change (POST, PUT, DELETE) must
also come from this server's Origin and carry the page's CSRF value (`check_change`).
"""

from __future__ import annotations

import hmac
import os
import secrets
from collections.abc import Callable, Iterable
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

from starlette.datastructures import State
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from serving.answers import Refused, error

COOKIE = "judge_session"
CSRF_HEADER = "x-csrf-token"
MIN_TOKEN_CHARS = 16
TOKEN_FILE = "web-token"
LOOPBACK = ("localhost", "127.0.0.1", "[::1]")
HEADERS = {  # both servers': no inline script or style, no framing, no sniffing, no cross-origin window
    "content-security-policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
                               "form-action 'self'",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
}
# The practice page changes things with fetch() only, so it sends no Referer at all; the class's
# pages post plain forms, whose Origin a browser sends as "null" under no-referrer.
NO_REFERRER, SAME_ORIGIN = "no-referrer", "same-origin"
STATIC = ("/static/", "/vendor/", "/page/")


class TokenError(Exception):
    """A token that cannot be used (too short, not printable ASCII, unreadable file): one line."""


def check_strength(token: str, where: str) -> str:
    if len(token) < MIN_TOKEN_CHARS:
        raise TokenError(f"{where}: a token needs at least {MIN_TOKEN_CHARS} characters (it is {len(token)})")
    if not all("!" <= c <= "~" for c in token):
        raise TokenError(f"{where}: a token is printable ASCII without spaces")
    return token


def stored_token(home: Path, rotate: bool = False) -> tuple[str, Path]:
    """The server's token, kept in home/web-token (mode 0600) so that it survives a restart; a new
    one when there is none, when it is unusable, or when `rotate` (--new-token)."""
    path = home / TOKEN_FILE
    if not rotate:
        try:
            if path.stat().st_mode & 0o077:
                path.chmod(0o600)  # a file others could read is narrowed, not trusted as it is
            return check_strength(path.read_text(encoding="ascii").strip(), str(path)), path
        except (OSError, UnicodeDecodeError, TokenError):
            pass  # absent or unusable: a new one
    token = secrets.token_urlsafe(24)
    home.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, (token + "\n").encode())
    finally:
        os.close(fd)
    return token, path


def read_token_file(path: Path) -> str:
    try:
        return check_strength(path.read_text(encoding="ascii").strip(), str(path))
    except (OSError, UnicodeDecodeError) as exc:
        raise TokenError(f"{path}: cannot be read as a token ({getattr(exc, 'strerror', None) or exc})") from None


def same(given: str, expected: str) -> bool:
    """A constant-time comparison that any text may reach (a non-ASCII str makes hmac raise)."""
    return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), expected.encode("utf-8"))


def allowed_hosts(host: str, port: int) -> set[str]:
    """The Host headers that name this server: loopback names and the --host given, with the port
    (and without it on port 80, as a browser sends it)."""
    names = {*LOOPBACK, f"[{host}]" if ":" in host and not host.startswith("[") else host}
    out = {f"{name}:{port}" for name in names}
    if port == 80:
        out |= names
    return {h.lower() for h in out}


def host_names(names: Iterable[str], port: int) -> set[str]:
    """The Host headers that name this server by a name given (a class's domain behind a proxy):
    NAME:PORT as given, or a bare NAME with this server's port or none (a proxy on 80 or 443 sends none)."""
    out = set()
    for name in names:
        name = name.strip().lower()
        if not name:
            continue
        if name.rpartition(":")[2].isdigit() and not name.endswith("]"):
            out.add(name)
        else:
            out |= {name, f"{name}:{port}"}
    return out


def check_origin(request: Request) -> None:
    """A change made with a cookie must come from this server's page: its Origin is this server."""
    origin = request.headers.get("origin")
    here = f"{request.url.scheme}://{request.headers.get('host', '')}"
    if origin != here:
        raise Refused(403, f"refused: a change must come from this site (Origin {origin!r})")


def check_change(request: Request, given_csrf: str, csrf: str | None) -> None:
    """The Origin, and the page's CSRF value (another site cannot set the header without a CORS grant)."""
    check_origin(request)
    if not csrf or not same(given_csrf, csrf):
        raise Refused(403, "refused: the CSRF token is missing or wrong (reload the page)")


def set_session(response: Response, name: str, value: str, request: Request, max_age: int | None = None) -> None:
    """The session cookie: HttpOnly, SameSite=Strict, Secure behind https."""
    response.set_cookie(name, value, httponly=True, samesite="strict", path="/",
                        secure=request.url.scheme == "https", max_age=max_age)


class Guard:
    """The ASGI middleware in front of the router: Host, then (with a token) token or cookie, then
    the headers on every answer."""

    state: State  # the application's, for whoever holds only the guard (the server, the tests)

    def __init__(self, app, hosts: Callable[[], set[str]], referrer: str, token: str | None = None,
                 session: str = "", cookie: str = COOKIE, host_hint: str = "") -> None:
        self.app, self.hosts, self.token, self.session, self.cookie = app, hosts, token, session, cookie
        self.headers = [(k.encode(), v.encode()) for k, v in {**HEADERS, "referrer-policy": referrer}.items()]
        self.host_hint = host_hint
        self.state = getattr(app, "state", State())

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        extra = [*self.headers, *([] if path.startswith(STATIC) else [(b"cache-control", b"no-store")])]

        async def with_headers(message) -> None:
            if message["type"] == "http.response.start":
                named = {k for k, _ in extra}
                message = {**message, "headers": [*((k, v) for k, v in message.get("headers", [])
                                                    if k.lower() not in named), *extra]}
            await send(message)

        request = Request(scope)
        host = request.headers.get("host", "").lower()
        if host not in self.hosts():
            await error(path, 421, f"this server does not answer for the host {host!r}{self.host_hint}")(
                scope, receive, with_headers)
            return
        if self.token is not None:
            given = request.query_params.get("token")
            if given is not None and same(given, self.token):
                if scope["method"] in ("GET", "HEAD"):  # the cookie, then the same URL without the token
                    query = urlencode([(k, v) for k, v in parse_qsl(scope.get("query_string", b"").decode("latin-1"),
                                                                    keep_blank_values=True) if k != "token"])
                    redirect = RedirectResponse(path + (f"?{query}" if query else ""), status_code=303)
                    set_session(redirect, self.cookie, self.session, request)
                    await redirect(scope, receive, with_headers)
                    return
            elif not same(request.cookies.get(self.cookie, ""), self.session):
                await error(path, 403, "open the URL the server printed (it carries the token)")(
                    scope, receive, with_headers)
                return
        await self.app(scope, receive, with_headers)
