"""How both servers refuse and read: one `Refused`, one bounded body reader, errors as JSON for the
API and as a short HTML page for a person."""

from __future__ import annotations

import html
import json
import math
import re

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

LENGTH = re.compile(r"[0-9]{1,18}")  # str.isdigit also takes "²", which int() refuses


class Refused(Exception):
    """A request the server will not do: its status, one line, more JSON fields, more headers."""

    def __init__(self, status: int, message: str, extra: dict | None = None, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.extra, self.headers = status, extra or {}, headers


def error(request_path: str, status: int, message: str, headers: dict | None = None,
          extra: dict | None = None) -> Response:
    """A refusal as the asker reads it: JSON for the API, an HTML page for a person."""
    if request_path.startswith("/api/"):
        return JSONResponse({"error": message, **(extra or {})}, status_code=status, headers=headers)
    body = (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{status}</title>"
            "</head><body><main class=\"error-page\">"
            f"<h1>{status}</h1><p>{html.escape(message)}</p><p><a href=\"/\">the problem list</a></p>"
            "</main></body></html>")
    return HTMLResponse(body, status_code=status, headers=headers)


def refusal(request: Request, exc: Refused) -> Response:
    return error(request.url.path, exc.status, str(exc), exc.headers, exc.extra)


async def read_body(request: Request, limit: int, what: str) -> bytes:
    """The request's body, refused (413) before reading when its Content-Length is over `limit`,
    and while reading when more comes than declared or allowed (a chunked body declares nothing)."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not LENGTH.fullmatch(declared):
            raise Refused(413, f"{what}: a Content-Length of {declared!r} is not a number")
        if int(declared) > limit:
            raise Refused(413, f"{what} is {int(declared)} bytes, over the limit of {limit}")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise Refused(413, f"{what} is over the limit of {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def versioned_save(request: Request, limit: int) -> tuple[str, str]:
    """A save's text (UTF-8, at most `limit` bytes) and the version it was based on (If-Match):
    400 for what is not text, 428 when it names no version, so no save overwrites blindly."""
    body = await read_body(request, limit, "the source")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused(400, "the source is not UTF-8 text") from None
    based_on = request.headers.get("if-match", "").strip().strip('"')
    if not based_on:
        raise Refused(428, "a save names the version it is based on (If-Match: the version the last load or save "
                           "gave)")
    return text, based_on


def finite(value):
    """`value` with every NaN or infinity as a string: Python's json writes them as bare NaN and
    Infinity, which no browser's JSON.parse reads (a max rel err is inf where expected is 0)."""
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [finite(v) for v in value]
    return value


def text(value: str, what: str) -> str:
    """The value, refused (400) when it cannot be stored as UTF-8 (a lone surrogate from JSON's \\ud800)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise Refused(400, f"{what} is not valid text (a lone surrogate)") from None
    return value


def parsed(body: bytes, what: str):
    """The JSON of a body; 400 for what is not JSON or is nested too deep for Python's parser."""
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        raise Refused(400, f"send JSON: {what}") from None
