"""The class's server: server-rendered pages and a JSON API over the store (the pages post plain
forms; the API is what scripts use, with a session cookie or `Authorization: Bearer <token>`).

Safety: a session cookie is HttpOnly and SameSite=Strict; a request that changes something with
it must come from this server's Origin and carry the session's CSRF token (a form field or the
x-csrf-token header), as on the single-user page; a Bearer token is no ambient credential and
needs neither. A student sees only their own submissions (another's answers 404, as one that
does not exist); an admin sees all and may rejudge. Every page is escaped by Jinja2 and served
with a Content-Security-Policy that allows no inline script.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hmac
import json
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from functools import partial
from pathlib import Path
from typing import Protocol
from urllib.parse import parse_qs, urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from classroom import standings
from classroom.accounts import check_password, hash_password
from classroom.config import ClassConfig, class_problems, load_config
from classroom.store import Job, Store, User
from grading.source import MAX_SOURCE_BYTES
from grading.verdict import Verdict, over
from problems import Problem
from web import statement

HERE = Path(__file__).resolve().parent
WEB_VENDOR = HERE.parent / "web" / "static" / "vendor"  # the single-user page's KaTeX and CodeMirror, read-only
COOKIE = "class_session"
CSRF_HEADER = "x-csrf-token"
MAX_BODY = 2 * MAX_SOURCE_BYTES + 4096  # a JSON-escaped source may take twice its bytes
VERDICTS = [v.value for v in Verdict]
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
       "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")


class Judges(Protocol):
    def start(self) -> None: ...
    def submit(self, job: Job) -> None: ...
    def close(self) -> None: ...


class Refused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class Caller:
    """Who is asking, and how: a session (cookie, with its CSRF token) or a Bearer token."""

    def __init__(self, user: User, csrf: str | None, session: str | None):
        self.user, self.csrf, self.session = user, csrf, session


def create_app(folder: Path, judges_factory: Callable[[Store, dict[str, Problem]], Judges]) -> Starlette:
    folder = folder.resolve()
    store = Store(folder)
    config_cache: dict[str, tuple[float, ClassConfig]] = {}
    problems = class_problems(load_config(folder))
    judges = judges_factory(store, problems)
    pages = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(default=True))
    pages.filters["when"] = _when

    pages.filters["figure"] = partial(figure, problems)

    def config() -> ClassConfig:
        """class.toml, read again when it changed (an admin reveals a frozen board by editing it)."""
        path = folder / "class.toml"
        stamp = path.stat().st_mtime if path.exists() else 0.0
        kept = config_cache.get("config")
        if kept is None or kept[0] != stamp:
            try:
                kept = (stamp, load_config(folder))
            except Exception:  # a bad edit: the last good settings stay
                if kept is None:
                    raise
            config_cache["config"] = kept
        return kept[1]

    # -- who is asking ---------------------------------------------------------------------------
    def caller_of(request: Request) -> Caller | None:
        auth = request.headers.get("authorization")
        if auth is not None:
            scheme, _, token = auth.partition(" ")
            user = store.user_by_token(token.strip()) if scheme.lower() == "bearer" and token.strip() else None
            if user is None:
                raise Refused(401, "the API token is not valid (Authorization: Bearer <token>)")
            return Caller(user, None, None)
        session = request.cookies.get(COOKIE)
        found = store.session(session) if session else None
        return Caller(found[0], found[1], session) if found and session else None

    def check_origin(request: Request) -> None:
        origin = request.headers.get("origin")
        here = f"{request.url.scheme}://{request.headers.get('host', '')}"
        if origin != here:
            raise Refused(403, f"refused: a change must come from this site (Origin {origin!r})")

    async def form_of(request: Request) -> dict[str, str]:
        if not hasattr(request.state, "form"):
            body = await _body(request)
            if request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
                fields = parse_qs(body.decode("utf-8", errors="replace"), keep_blank_values=True)
                request.state.form = {k: v[0] for k, v in fields.items()}
            else:
                request.state.form = {}
        return request.state.form

    async def check_change(request: Request, caller: Caller) -> None:
        if caller.session is None:
            return  # a Bearer token: no cookie a browser would send on its own
        check_origin(request)
        given = request.headers.get(CSRF_HEADER) or (await form_of(request)).get("csrf", "")
        if not caller.csrf or not hmac.compare_digest(given, caller.csrf):
            raise Refused(403, "refused: the CSRF token is missing or wrong (reload the page)")

    def endpoint(handler: Callable[[Request, Caller], Awaitable[Response]], changes: bool = False,
                 admin: bool = False, page: bool = False):
        async def run(request: Request) -> Response:
            try:
                caller = caller_of(request)
                if caller is None:
                    if page:
                        return RedirectResponse("/signin?" + urlencode({"next": request.url.path}), status_code=303)
                    raise Refused(401, "sign in first (POST /api/signin), or send Authorization: Bearer <token>")
                if changes:
                    await check_change(request, caller)
                if admin and not caller.user.admin:
                    raise Refused(403, "only an admin may do this")
                return await handler(request, caller)
            except Refused as exc:
                if page:
                    return render("error.html", None, status=exc.status, message=str(exc))
                return JSONResponse({"error": str(exc)}, status_code=exc.status)
        return run

    def render(name: str, caller: Caller | None, status: int = 200, **context) -> HTMLResponse:
        return HTMLResponse(pages.get_template(name).render(
            me=caller.user if caller else None, csrf=caller.csrf if caller else "", config=config(), **context),
            status_code=status)

    # -- the submissions' rules ------------------------------------------------------------------
    def problem_of(slug: str) -> Problem:
        found = problems.get(slug)
        if found is None:
            raise Refused(404, f"no problem {slug!r} in this class")
        return found

    def create(caller: Caller, slug: object, code: object) -> int:
        problem = problem_of(slug) if isinstance(slug, str) else None
        if problem is None:
            raise Refused(400, "give the problem's slug as a string")
        if not isinstance(code, str):
            raise Refused(400, "give the code as a string")
        size = len(code.encode("utf-8", errors="surrogatepass"))
        if size > MAX_SOURCE_BYTES:
            raise Refused(413, f"the source is {size} bytes, over the judge's limit of {MAX_SOURCE_BYTES}")
        user, now = caller.user, time.time()
        settings = config()
        if not user.admin:
            closed = settings.closed(now)
            if closed:
                raise Refused(403, closed)
            if store.recent(user.id, now - 60) >= settings.submissions_per_minute:
                raise Refused(429, f"at most {settings.submissions_per_minute} submissions a minute: wait a moment")
        if store.pending(user.id, problem.slug):
            raise Refused(429, f"your last submission of {problem.slug} is still being judged: wait for its verdict")
        job = store.add_submission(user.id, problem.slug, code, now)
        judges.submit(job)
        return job.submission

    def visible(caller: Caller, submission_id: str) -> dict:
        row = store.submission(int(submission_id)) if submission_id.isdigit() else None
        if row is None or (row["user_id"] != caller.user.id and not caller.user.admin):
            raise Refused(404, f"no submission {submission_id}")  # another's: as if it did not exist
        return _public(row, with_code=True)

    def listing(caller: Caller, params) -> list[dict]:
        user_id: int | None = caller.user.id
        if caller.user.admin:
            name = params.get("user") or None
            user_id = None
            if name:
                row = store.user_row(name)
                if row is None:
                    return []
                user_id = row["id"]
        verdict = params.get("verdict") or None
        status = params.get("status") or None
        problem = params.get("problem") or None
        return [_public(r) for r in store.submissions(user_id, problem, verdict, status)]

    def problem_rows(caller: Caller) -> list[dict]:
        rows: Iterable[Mapping] = store.all_for_standings()  # type: ignore[assignment]  # Rows map
        stats = standings.problem_stats(rows, problems)
        mine: dict[str, str] = {}
        for row in store.submissions(caller.user.id, limit=100000):
            if row["verdict"] == "AC" or row["problem"] not in mine:
                mine[row["problem"]] = "solved" if row["verdict"] == "AC" else "tried"
        return [{"slug": p.slug, "id": p.id, "title": p.title, **stats[p.slug], "you": mine.get(p.slug)}
                for p in problems.values()]

    def board(caller: Caller) -> dict:
        settings = config()
        if not settings.scoreboard:
            raise Refused(404, "this class has no scoreboard (mode = \"class\" in class.toml)")
        assert settings.start is not None  # a contest has one (config.py)
        freeze = None if caller.user.admin else settings.freeze_at()
        frozen = freeze is not None and time.time() >= freeze
        submitted: Iterable[Mapping] = store.all_for_standings()  # type: ignore[assignment]  # Rows map
        rows = standings.scoreboard(submitted, list(problems), settings.start, settings.end, freeze if frozen else None)
        return {"title": settings.title, "problems": list(problems), "frozen": frozen, "rows": rows,
                "start": settings.start, "end": settings.end}

    def rejudge(ids: list[int]) -> list[int]:
        jobs = store.rejudge(ids)
        for job in jobs:
            judges.submit(job)
        return [job.submission for job in jobs]

    # -- API -------------------------------------------------------------------------------------
    async def api_signin(request: Request) -> Response:
        if request.headers.get("origin") is not None:
            check_origin(request)
        try:
            given = json.loads(await _body(request))
            login, password = given["login"], given["password"]
            assert isinstance(login, str) and isinstance(password, str)
        except (ValueError, KeyError, TypeError, AssertionError):
            return JSONResponse({"error": 'send {"login": name or email, "password": ...}'}, status_code=400)
        user = await asyncio.to_thread(_sign_in, store, login, password)
        if user is None:
            return JSONResponse({"error": "wrong name or password"}, status_code=401)
        session, csrf = store.new_session(user.id)
        response = JSONResponse({"user": user.name, "role": user.role, "csrf": csrf})
        _set_cookie(response, session, request)
        return response

    async def api_me(request: Request, caller: Caller) -> Response:
        return JSONResponse({"user": caller.user.name, "email": caller.user.email, "role": caller.user.role,
                             "csrf": caller.csrf})

    async def api_token(request: Request, caller: Caller) -> Response:
        return JSONResponse({"token": store.new_token(caller.user.id)})

    async def api_problems(request: Request, caller: Caller) -> Response:
        return JSONResponse(problem_rows(caller))

    async def api_submit(request: Request, caller: Caller) -> Response:
        try:
            given = json.loads(await _body(request))
        except ValueError:
            raise Refused(400, 'send JSON: {"problem": slug, "code": text}') from None
        if not isinstance(given, dict):
            raise Refused(400, 'send JSON: {"problem": slug, "code": text}')
        return JSONResponse({"id": create(caller, given.get("problem"), given.get("code"))}, status_code=201)

    async def api_submission(request: Request, caller: Caller) -> Response:
        return JSONResponse(visible(caller, request.path_params["id"]))

    async def api_submissions(request: Request, caller: Caller) -> Response:
        return JSONResponse(listing(caller, request.query_params))

    async def api_scoreboard(request: Request, caller: Caller) -> Response:
        return JSONResponse(board(caller))

    async def api_rejudge_one(request: Request, caller: Caller) -> Response:
        visible(caller, request.path_params["id"])
        return JSONResponse({"rejudged": rejudge([int(request.path_params["id"])])})

    async def api_rejudge_problem(request: Request, caller: Caller) -> Response:
        problem = problem_of(request.path_params["slug"])
        return JSONResponse({"rejudged": rejudge(store.problem_submissions(problem.slug))})

    # -- pages -----------------------------------------------------------------------------------
    async def signin_page(request: Request) -> Response:
        if request.method == "GET":
            return render("signin.html", None, next=_next(request.query_params.get("next")))
        try:
            check_origin(request)
        except Refused as exc:
            return render("signin.html", None, status=exc.status, error=str(exc), next="/")
        form = await form_of(request)
        user = await asyncio.to_thread(_sign_in, store, form.get("login", ""), form.get("password", ""))
        if user is None:
            return render("signin.html", None, status=401, error="wrong name or password",
                          next=_next(form.get("next")))
        session, _ = store.new_session(user.id)
        response = RedirectResponse(_next(form.get("next")), status_code=303)
        _set_cookie(response, session, request)
        return response

    async def signout(request: Request, caller: Caller) -> Response:
        if caller.session:
            store.end_session(caller.session)
        response = RedirectResponse("/signin", status_code=303)
        response.delete_cookie(COOKIE, path="/")
        return response

    async def index(request: Request, caller: Caller) -> Response:
        return render("problems.html", caller, problems=problem_rows(caller))

    async def problem_page(request: Request, caller: Caller) -> Response:
        problem = problem_of(request.path_params["slug"])
        lang = "zh" if request.query_params.get("lang") == "zh" and (problem.root / "spec.zh.md").is_file() else "en"
        html = statement.render(problem.root / ("spec.zh.md" if lang == "zh" else "spec.md"))
        return render("problem.html", caller, problem=problem, statement=html, lang=lang,
                      has_zh=(problem.root / "spec.zh.md").is_file(), closed=config().closed(time.time()))

    async def submit_page(request: Request, caller: Caller) -> Response:
        form = await form_of(request)
        submission = create(caller, request.path_params["slug"], form.get("code", ""))
        return RedirectResponse(f"/submissions/{submission}", status_code=303)

    async def submissions_page(request: Request, caller: Caller) -> Response:
        params = request.query_params
        return render("submissions.html", caller, rows=listing(caller, params), problems=list(problems),
                      verdicts=VERDICTS, statuses=["queued", "judging", "done"], chosen=dict(params))

    async def submission_page(request: Request, caller: Caller) -> Response:
        return render("submission.html", caller, s=visible(caller, request.path_params["id"]))

    async def scoreboard_page(request: Request, caller: Caller) -> Response:
        return render("scoreboard.html", caller, board=board(caller))

    async def account_page(request: Request, caller: Caller) -> Response:
        return render("account.html", caller, token=None, message=None)

    async def account_token(request: Request, caller: Caller) -> Response:
        return render("account.html", caller, token=store.new_token(caller.user.id), message=None)

    async def account_password(request: Request, caller: Caller) -> Response:
        form = await form_of(request)
        row = store.user_row(caller.user.name)
        assert row is not None  # signed in
        if not await asyncio.to_thread(check_password, form.get("old", ""), row["password"]):
            raise Refused(403, "the current password is wrong")
        new = form.get("new", "")
        if len(new) < 10:
            raise Refused(400, "choose a password of 10 characters or more")
        store.set_password(caller.user.id, await asyncio.to_thread(hash_password, new))
        return render("account.html", caller, token=None, message="password changed")

    async def rejudge_one_page(request: Request, caller: Caller) -> Response:
        visible(caller, request.path_params["id"])
        rejudge([int(request.path_params["id"])])
        return RedirectResponse(f"/submissions/{request.path_params['id']}", status_code=303)

    async def rejudge_problem_page(request: Request, caller: Caller) -> Response:
        problem = problem_of(request.path_params["slug"])
        rejudge(store.problem_submissions(problem.slug))
        return RedirectResponse(f"/submissions?problem={problem.slug}", status_code=303)

    routes = [
        Route("/signin", signin_page, methods=["GET", "POST"]),
        Route("/signout", endpoint(signout, changes=True, page=True), methods=["POST"]),
        Route("/", endpoint(index, page=True)),
        Route("/problems/{slug}", endpoint(problem_page, page=True)),
        Route("/problems/{slug}/submit", endpoint(submit_page, changes=True, page=True), methods=["POST"]),
        Route("/problems/{slug}/rejudge", endpoint(rejudge_problem_page, changes=True, admin=True, page=True),
              methods=["POST"]),
        Route("/submissions", endpoint(submissions_page, page=True)),
        Route("/submissions/{id}", endpoint(submission_page, page=True)),
        Route("/submissions/{id}/rejudge", endpoint(rejudge_one_page, changes=True, admin=True, page=True),
              methods=["POST"]),
        Route("/scoreboard", endpoint(scoreboard_page, page=True)),
        Route("/account", endpoint(account_page, page=True)),
        Route("/account/token", endpoint(account_token, changes=True, page=True), methods=["POST"]),
        Route("/account/password", endpoint(account_password, changes=True, page=True), methods=["POST"]),
        Route("/api/signin", api_signin, methods=["POST"]),
        Route("/api/me", endpoint(api_me)),
        Route("/api/token", endpoint(api_token, changes=True), methods=["POST"]),
        Route("/api/problems", endpoint(api_problems)),
        Route("/api/submissions", endpoint(api_submit, changes=True), methods=["POST"]),
        Route("/api/submissions", endpoint(api_submissions), methods=["GET"]),
        Route("/api/submissions/{id}", endpoint(api_submission)),
        Route("/api/submissions/{id}/rejudge", endpoint(api_rejudge_one, changes=True, admin=True), methods=["POST"]),
        Route("/api/problems/{slug}/rejudge", endpoint(api_rejudge_problem, changes=True, admin=True),
              methods=["POST"]),
        Route("/api/scoreboard", endpoint(api_scoreboard)),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        Mount("/vendor", StaticFiles(directory=WEB_VENDOR), name="vendor"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        await asyncio.to_thread(judges.start)
        yield
        await asyncio.to_thread(judges.close)

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.store, app.state.judges = store, judges
    return _Headers(app)  # type: ignore[return-value]  # an ASGI app like Starlette's


class _Headers:
    """Every response says: no inline script, no framing, no sniffing, no referrer to other sites."""

    HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
               (b"referrer-policy", b"same-origin"), (b"x-frame-options", b"DENY")]

    def __init__(self, app: Starlette):
        self.app = app
        self.state = app.state

    async def __call__(self, scope, receive, send) -> None:
        async def with_headers(message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.HEADERS]
            await send(message)
        await self.app(scope, receive, with_headers)


async def _body(request: Request) -> bytes:
    """The request's body, refused (413) past MAX_BODY before it is all read."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY:
        raise Refused(413, f"the request is {declared} bytes, over {MAX_BODY}")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise Refused(413, f"the request is over {MAX_BODY} bytes")
    return body


def _sign_in(store: Store, login: str, password: str) -> User | None:
    row = store.user_row(login) if login else None
    if row is None:
        check_password(password, "scrypt$16384$8$1$00$00")  # as slow as a real check: names are not told apart
        return None
    return store.user(row["id"]) if check_password(password, row["password"]) else None


def _set_cookie(response: Response, session: str, request: Request) -> None:
    response.set_cookie(COOKIE, session, httponly=True, samesite="strict", path="/",
                        secure=request.url.scheme == "https", max_age=14 * 86400)


def _next(target: str | None) -> str:
    """Where to go after signing in: a path on this site only."""
    return target if target and target.startswith("/") and not target.startswith("//") else "/"


def _public(row, with_code: bool = False) -> dict:
    data = {"id": row["id"], "user": row["user_name"], "problem": row["problem"], "created": row["created"],
            "status": row["status"], "verdict": row["verdict"], "cpu_ms": row["cpu_ms"],
            "memory_mb": row["memory_mb"], "attempts": row["attempts"], "round": row["round"]}
    if with_code:
        data.update(code=row["code"], message=row["message"], tests=json.loads(row["tests"]) if row["tests"] else [])
    return data


def figure(problems: Mapping[str, Problem], value: float | None, verdict: str | None, slug: str,
           limit_verdict: str) -> str:
    """A CPU time (limit_verdict TLE) or a peak memory (MLE) as the pages show it, never rounded onto
    its problem's limit on that verdict: a TLE at 1000.4 ms reads 1000.4 ms, not 1000 ms."""
    if value is None:
        return ""
    problem = problems.get(slug)
    limit = None if problem is None or verdict != limit_verdict else (
        problem.time_limit_ms if limit_verdict == "TLE" else problem.memory_limit_mb)
    digits, unit = (0, "ms") if limit_verdict == "TLE" else (1, "MiB")
    if limit is None or value <= limit:
        return f"{value:.{digits}f} {unit}"
    shown = over(value, limit, least=digits)
    return f"{'>' + str(limit) if shown.startswith('more') else shown} {unit}"


def _when(timestamp: float | None) -> str:
    if timestamp is None:
        return ""
    return dt.datetime.fromtimestamp(timestamp, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
