"""Who may talk to the web page's server, and what every answer carries (docs/web.md).

Before any routing, every request passes `Guard`: its Host must name this server (localhost,
127.0.0.1, [::1] or the --host given, with the port), else 421, so a DNS-rebinding page learns
nothing; then it must carry the token in the URL once, or after that the session cookie, else
403, the same answer for every path, so nobody without the token learns which routes exist. A
token in the URL sets the cookie and answers 303 to the same URL without it, so the token leaves
the address bar, the history and any Referer. Every answer carries the security headers below; a
page (which holds the CSRF token) is never cached. Errors are an HTML page for pages, JSON for the API.

The cookie holds a session secret of this process, not the token: browsers send 127.0.0.1's
cookies to every port, so another local server may see it; it grants nothing once this server
restarts and never reveals the token. The CSRF token is another random value of this process,
shown only in the page, so nothing a cookie carries derives it. The token itself is kept under
$JUDGE_HOME (mode 0600): the URL the server prints stays the same across restarts.
"""

from __future__ import annotations

import hmac
import html
import os
import secrets
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

from starlette.datastructures import State
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

COOKIE = "judge_session"
CSRF_HEADER = "x-csrf-token"
MIN_TOKEN_CHARS = 16
TOKEN_FILE = "web-token"
LOOPBACK = ("localhost", "127.0.0.1", "[::1]")
HEADERS = {
    "content-security-policy": "default-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; "
                               "form-action 'self'",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
}


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


def error(request_path: str, status: int, message: str, headers: dict | None = None) -> Response:
    """A refusal as the asker reads it: JSON for the API, an HTML page for a person."""
    if request_path.startswith("/api/"):
        return JSONResponse({"error": message}, status_code=status, headers=headers)
    body = (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{status}</title>"
            "<link rel=\"stylesheet\" href=\"/static/style.css\"></head><body><main class=\"error-page\">"
            f"<h1>{status}</h1><p>{html.escape(message)}</p><p><a href=\"/\">the problem list</a></p>"
            "</main></body></html>")
    return HTMLResponse(body, status_code=status, headers=headers)


class Guard:
    """The ASGI middleware in front of the router: Host, then token, then the headers."""

    state: State  # the application's, for whoever holds only the guard (the server, the tests)

    def __init__(self, app, token: str, hosts: set[str], session: str) -> None:
        self.app, self.token, self.hosts, self.session = app, token, hosts, session

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        path = scope.get("path", "")
        host = request.headers.get("host", "").lower()
        if host not in self.hosts:
            await _with_headers(error(path, 421, f"this server does not answer for the host {host!r}"), path)(
                scope, receive, send)
            return
        given = request.query_params.get("token")
        if given is not None and same(given, self.token):
            if scope["method"] in ("GET", "HEAD"):  # the cookie, then the same URL without the token
                query = urlencode([(k, v) for k, v in parse_qsl(scope.get("query_string", b"").decode("latin-1"),
                                                                keep_blank_values=True) if k != "token"])
                redirect = RedirectResponse(path + (f"?{query}" if query else ""), status_code=303)
                redirect.set_cookie(COOKIE, self.session, httponly=True, samesite="strict", path="/")
                await _with_headers(redirect, path)(scope, receive, send)
                return
        elif not same(request.cookies.get(COOKIE, ""), self.session):
            await _with_headers(error(path, 403, "open the URL the server printed (it carries the token)"), path)(
                scope, receive, send)
            return

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k.encode(), v.encode()) for k, v in _headers_for(path).items() if k.encode() not in present]
                message = {**message, "headers": list(message.get("headers", [])) + extra}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _headers_for(path: str) -> dict[str, str]:
    """Every answer's headers; anything but the vendored static files is never cached (a page
    holds the CSRF token, the API's answers the user's code)."""
    return {**HEADERS, **({} if path.startswith("/static/") else {"cache-control": "no-store"})}


def _with_headers(response: Response, path: str) -> Response:
    for key, value in _headers_for(path).items():
        response.headers.setdefault(key, value)
    return response


class BodyTooLarge(Exception):
    def __init__(self, message: str):
        super().__init__(message)


async def read_body(request: Request, limit: int, what: str) -> bytes:
    """The request's body, refused before reading when its Content-Length is over `limit`, and
    while reading when more comes than declared or allowed (a chunked body declares nothing)."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            raise BodyTooLarge(f"{what}: a Content-Length of {declared!r} is not a number")
        if int(declared) > limit:
            raise BodyTooLarge(f"{what} is {int(declared)} bytes, over the limit of {limit}")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(f"{what} is over the limit of {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)
