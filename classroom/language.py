"""The language a class page is shown in, kept as the practice page keeps it (web/static/app.js:
"judge-lang", "en" or "zh"), here in a cookie of that name so that server-rendered pages read it:
a page's switch links to ?lang=zh or ?lang=en, which sets the cookie for every page after."""

from __future__ import annotations

from collections.abc import Mapping
from contextvars import ContextVar
from http.cookies import SimpleCookie
from urllib.parse import parse_qs, parse_qsl, urlencode

from classroom.labels import LANGS, labeler
from problems import Problem

COOKIE = "judge-lang"
YEAR = 365 * 86400
_current: ContextVar[str] = ContextVar("judge_lang", default="en")
_here: ContextVar[tuple[str, str]] = ContextVar("judge_here", default=("/", ""))


def current() -> str:
    """This request's language: "en" or "zh"."""
    return _current.get()


def switch() -> dict[str, str]:
    """The language switch's links: this page (its other query parameters kept) in each language."""
    path, query = _here.get()
    kept = [(k, v) for k, v in parse_qsl(query, keep_blank_values=True) if k != "lang"]
    return {lang: path + "?" + urlencode([*kept, ("lang", lang)]) for lang in LANGS}


def in_language(path: str) -> str:
    """A link to one of this server's pages that keeps a Chinese choice (the problem page reads
    its statement's language from ?lang=)."""
    return path + ("&" if "?" in path else "?") + "lang=zh" if current() == "zh" else path


def _cookie_lang(headers: list[tuple[bytes, bytes]]) -> str | None:
    for name, value in headers:
        if name == b"cookie":
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(value.decode("latin-1"))
            except Exception:  # a malformed Cookie header: no language from it
                continue
            if COOKIE in jar and jar[COOKIE].value in LANGS:
                return jar[COOKIE].value
    return None


class Languages:
    """ASGI middleware: `?lang=` (en or zh) chooses and sets the cookie; else the cookie; else English."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", [None])[-1]
        kept = _cookie_lang(scope.get("headers", []))
        chosen = asked if asked is not None and asked in LANGS else kept or "en"
        token = _current.set(chosen)
        here = _here.set((scope.get("path", "/"), scope.get("query_string", b"").decode("latin-1")))

        async def send_with_cookie(message):
            if message["type"] == "http.response.start" and asked in LANGS and asked != kept:
                cookie = f"{COOKIE}={asked}; Path=/; Max-Age={YEAR}; SameSite=Lax".encode()
                message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", cookie)]}
            await send(message)

        try:
            await self.app(scope, receive, send_with_cookie)
        finally:
            _current.reset(token)
            _here.reset(here)


def page_words(problems: Mapping[str, Problem]) -> dict[str, object]:
    """What every class page's template gets for its language: t(key, **values) for a label, ui
    (the language), the switch's links, problem_url(slug) and title_of(slug) in that language."""
    lang = current()

    def title_of(slug: str) -> str:
        problem = problems.get(slug)
        return slug if problem is None else problem.titles.get(lang, problem.title)

    return {"t": labeler(lang), "ui": lang, "switch": switch(), "title_of": title_of,
            "problem_url": lambda slug: in_language(f"/problems/{slug}")}
