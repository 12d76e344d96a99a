"""The class's server: server-rendered pages and a JSON API over the store (the pages post plain
forms; the API is what scripts use, with a session cookie or `Authorization: Bearer <token>`).

Safety: a session cookie is HttpOnly and SameSite=Strict; a request that changes something with
it must come from this server's Origin and carry the session's CSRF token (a form field or the
x-csrf-token header), as on the single-user page; a Bearer token is no ambient credential and
needs neither. A student sees only their own submissions (another's answers 404, as one that
does not exist); an admin sees all and may rejudge. Every page is escaped by Jinja2 and served
with a Content-Security-Policy that allows no inline script, and `Cache-Control: no-store`
(everything but the static files carries code, results or a CSRF token). Before any routing the
Host must name this server (serving/access.py's allow-list, plus the names the class allows), else 421.
Sign-ins are throttled (throttle.py); every malformed request is a 4xx with {"error"}.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import difflib
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from functools import partial
from pathlib import Path
from typing import Protocol
from urllib.parse import parse_qs, urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from classroom import standings
from classroom.accounts import check_password, hash_password
from classroom.config import ClassConfig, class_problems, load_config
from classroom.feedback import verdicts_only
from classroom.labels import labeler
from classroom.language import Languages, current, page_words
from classroom.page import ClassPage
from classroom.store import PAGE, Job, Store, User
from classroom.throttle import ACCOUNT_FREE, Throttle
from classroom.tryout import RunJudge
from coach.editorial import explained
from grading.source import MAX_SOURCE_BYTES
from grading.verdict import Verdict, over
from problems import Problem, all_problems
from problems.package import by_difficulty
from serving import problem_api
from serving.access import (
    CSRF_HEADER,
    SAME_ORIGIN,
    Guard,
    allowed_hosts,
    check_change,
    check_origin,
    host_names,
    set_session,
)
from serving.answers import Refused, parsed, read_body, refusal, text, versioned_save
from serving.store import Ask

log = logging.getLogger("classroom")

HERE = Path(__file__).resolve().parent
COOKIE = "class_session"
MAX_BODY = 2 * MAX_SOURCE_BYTES + 4096  # a JSON-escaped source may take twice its bytes
VERDICTS = [v.value for v in Verdict]
ID = re.compile(r"[0-9]{1,18}")  # an id SQLite's 64-bit integers hold (str.isdigit also takes "²")


class Judges(Protocol):
    def start(self) -> None: ...
    def submit(self, job: Job) -> None: ...
    def close(self) -> None: ...
    def run_judge(self) -> RunJudge | None: ...


class Caller:
    """Who is asking, and how: a session (cookie, with its CSRF token) or a Bearer token."""

    def __init__(self, user: User, csrf: str | None, session: str | None):
        self.user, self.csrf, self.session = user, csrf, session


def create_app(folder: Path, judges_factory: Callable[[Store, dict[str, Problem]], Judges], host: str = "127.0.0.1",
               port: int = 8000, names: Iterable[str] = ()) -> Starlette:
    """The server for the class in `folder`; `host`, `port` and `names` (more host names, such as
    the class's domain behind a proxy) are what it answers for."""
    folder = folder.resolve()
    store = Store(folder)
    throttle = Throttle()
    config_cache: dict[str, tuple[tuple, ClassConfig]] = {}
    problems_cache: dict[str, tuple[ClassConfig, dict[str, Problem]]] = {}
    load_config(folder)  # a bad class.toml stops the start
    known = {p.slug: p for p in all_problems()}  # any problem class.toml may add later
    judges = judges_factory(store, known)
    pages = Environment(loader=FileSystemLoader([HERE / "templates", problem_api.TEMPLATES]),
                        autoescape=select_autoescape(default=True))
    pages.filters["when"] = _when
    pages.filters["prose"] = _prose
    pages.filters["figure"] = partial(figure, known)
    pages.globals["limits"] = partial(limits, known)

    def config() -> ClassConfig:
        """class.toml, read again when it changed (an admin reveals a frozen board, or changes the
        problems, by editing it)."""
        path = folder / "class.toml"
        try:
            found = path.stat()
            stamp: tuple = (found.st_mtime_ns, found.st_size, found.st_ino)
        except FileNotFoundError:
            stamp = ()
        kept = config_cache.get("config")
        if kept is None or kept[0] != stamp:
            try:
                kept = (stamp, load_config(folder))
            except Exception:  # a bad edit: the last good settings stay
                if kept is None:
                    raise
            config_cache["config"] = kept
        return kept[1]

    def class_problems_now() -> dict[str, Problem]:
        settings = config()
        kept = problems_cache.get("problems")
        if kept is None or kept[0] is not settings:
            kept = problems_cache["problems"] = (settings, class_problems(settings))
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

    async def form_of(request: Request) -> dict[str, str]:
        if not hasattr(request.state, "form"):
            body = await read_body(request, MAX_BODY, "the request")
            if request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
                fields = parse_qs(body.decode("utf-8", errors="replace"), keep_blank_values=True)
                request.state.form = {k: v[0] for k, v in fields.items()}
            else:
                request.state.form = {}
        return request.state.form

    async def check_caller(request: Request, caller: Caller) -> None:
        if caller.session is None:
            return  # a Bearer token: no cookie a browser would send on its own
        check_change(request, request.headers.get(CSRF_HEADER) or (await form_of(request)).get("csrf", ""),
                     caller.csrf)

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
                    await check_caller(request, caller)
                if admin and not caller.user.admin:
                    raise Refused(403, "only an admin may do this")
                return await handler(request, caller)
            except Refused as exc:
                if page:
                    return render("error.html", None, status=exc.status, message=str(exc), headers=exc.headers)
                return refusal(request, exc)
        return run

    def render(name: str, caller: Caller | None, status: int = 200, headers: dict[str, str] | None = None,
               **context) -> HTMLResponse:
        return HTMLResponse(pages.get_template(name).render(
            me=caller.user if caller else None, csrf=caller.csrf if caller else "", config=config(),
            **page_words(known), **context),
            status_code=status, headers=headers)

    async def sign_in(request: Request, login: str, password: str) -> User:
        """The user whose password this is, or Refused: 429 while the throttle says wait, else 401."""
        text(login, "the name")
        text(password, "the password")
        address = request.client.host if request.client else ""
        row = store.user_row(login) if login else None
        account = f"user {row['id']}" if row else login  # a name and an email of one user: one count
        wait = throttle.begin(account, address)
        if wait > 0:
            seconds = max(1, round(wait + 0.49))
            raise Refused(429, f"too many failed sign-ins: try again in {seconds} s",
                          headers={"Retry-After": str(seconds)})
        checked: bool | None = None  # None: the check never ended (the client left): nothing counted
        try:
            user = await asyncio.to_thread(_sign_in, store, login, password)
            checked = user is not None
        finally:
            if throttle.end(account, address, checked):
                log.warning("sign-in: %d failures in a row for %r (last from %s): its tries now wait",
                            ACCOUNT_FREE, login[:60], address)
        if user is None:
            raise Refused(401, "wrong name or password")
        return user

    # -- the submissions' rules ------------------------------------------------------------------
    def problem_of(slug: str) -> Problem:
        found = class_problems_now().get(slug)
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
        text(code, "the code")
        user, now = caller.user, time.time()
        settings = config()
        if not user.admin:
            closed = settings.closed(now)
            if closed:
                raise Refused(403, closed)
            if store.recent(user.id, now - 60) >= settings.submissions_per_minute:
                raise Refused(429, f"at most {settings.submissions_per_minute} submissions a minute: wait a moment")
            stored = store.stored_bytes(user.id)
            if stored + size > settings.store_quota_mib << 20:
                raise Refused(413, f"your stored code would be {stored + size} bytes, over the quota of "
                                   f"{settings.store_quota_mib} MiB per student: ask the class's admin")
            hourly = store.stored_bytes(user.id, now - 3600)
            if hourly + size > settings.store_mib_per_hour << 20:
                raise Refused(429, f"at most {settings.store_mib_per_hour} MiB of code an hour per student "
                                   f"({hourly} bytes in the last hour): wait a while")
        if store.pending(user.id, problem.slug):
            raise Refused(429, f"your last submission of {problem.slug} is still being judged: wait for its verdict")
        job = store.add_submission(user.id, problem.slug, code, now)
        judges.submit(job)
        return job.submission

    def visible(caller: Caller, submission_id: str) -> dict:
        row = store.submission(int(submission_id)) if ID.fullmatch(submission_id) else None
        if row is None or (row["user_id"] != caller.user.id and not caller.user.admin):
            raise Refused(404, f"no submission {submission_id}")  # another's: as if it did not exist
        shown = _public(row, with_code=True)
        return shown if caller.user.admin or config().full_feedback else verdicts_only(shown, config().visible_tests)

    page = ClassPage(store, config, problem_of, create, visible, judges.run_judge())

    def listing(caller: Caller, params) -> list[dict]:
        """A page of submissions, newest first: PAGE of them, those below `before` (an id) when given."""
        before_text = params.get("before") or None
        if before_text is not None and not ID.fullmatch(before_text):
            raise Refused(400, f"before={before_text!r}: a submission id")
        before = int(before_text) if before_text is not None else None
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
        return [_public(r) for r in store.submissions(user_id, problem, verdict, status, before=before)]

    def problem_rows(caller: Caller) -> list[dict]:
        """Each problem's statistics; a student during a freeze sees them as of the freeze's start
        (as the scoreboard), their own standing live."""
        problems = class_problems_now()
        rows: Iterable[Mapping] = store.all_for_standings()  # type: ignore[assignment]  # Rows map
        freeze = None if caller.user.admin else config().freeze_at()
        if freeze is not None and time.time() >= freeze:
            rows = [r for r in rows if r["created"] < freeze]
        stats = standings.problem_stats(rows, problems)
        mine: dict[str, str] = {}
        for row in store.submissions(caller.user.id, limit=100000):
            if row["verdict"] == "AC" or row["problem"] not in mine:
                mine[row["problem"]] = "solved" if row["verdict"] == "AC" else "tried"
        return [{"slug": p.slug, "id": p.id, "title": p.title, "difficulty": p.difficulty, **stats[p.slug],
                 "you": mine.get(p.slug)} for p in by_difficulty(list(problems.values()))]

    def board(caller: Caller) -> dict:
        settings = config()
        if not settings.scoreboard:
            raise Refused(404, "this class has no scoreboard (mode = \"class\" in class.toml)")
        assert settings.start is not None  # a contest has one (config.py)
        freeze = None if caller.user.admin else settings.freeze_at()
        frozen = freeze is not None and time.time() >= freeze
        submitted: Iterable[Mapping] = store.all_for_standings()  # type: ignore[assignment]  # Rows map
        slugs = list(class_problems_now())
        rows = standings.scoreboard(submitted, slugs, settings.start, settings.end, freeze if frozen else None)
        return {"title": settings.title, "problems": slugs, "frozen": frozen, "rows": rows,
                "start": settings.start, "end": settings.end}

    def rejudge(ids: list[int]) -> list[int]:
        jobs = store.rejudge(ids)
        for job in jobs:
            judges.submit(job)
        return [job.submission for job in jobs]

    # -- API -------------------------------------------------------------------------------------
    async def api_signin(request: Request) -> Response:
        try:
            if request.headers.get("origin") is not None:
                check_origin(request)
            wanted = '{"login": name or email, "password": ...}'
            given = parsed(await read_body(request, MAX_BODY, "the request"), wanted)
            login = given.get("login") if isinstance(given, dict) else None
            password = given.get("password") if isinstance(given, dict) else None
            if not isinstance(login, str) or not isinstance(password, str):
                raise Refused(400, f"send {wanted}")
            user = await sign_in(request, login, password)
        except Refused as exc:
            return refusal(request, exc)
        session, csrf = store.new_session(user.id)
        response = JSONResponse({"user": user.name, "role": user.role, "csrf": csrf})
        set_session(response, COOKIE, session, request, max_age=14 * 86400)
        return response

    async def api_me(request: Request, caller: Caller) -> Response:
        return JSONResponse({"user": caller.user.name, "email": caller.user.email, "role": caller.user.role,
                             "csrf": caller.csrf})

    async def api_token(request: Request, caller: Caller) -> Response:
        return JSONResponse({"token": store.new_token(caller.user.id)})

    async def api_problems(request: Request, caller: Caller) -> Response:
        return JSONResponse(problem_rows(caller))

    async def api_submit(request: Request, caller: Caller) -> Response:
        given = parsed(await read_body(request, MAX_BODY, "the request"), '{"problem": slug, "code": text}')
        if not isinstance(given, dict):
            raise Refused(400, 'send JSON: {"problem": slug, "code": text}')
        return JSONResponse({"id": create(caller, given.get("problem"), given.get("code"))}, status_code=201)

    async def api_submission(request: Request, caller: Caller) -> Response:
        return JSONResponse(visible(caller, request.path_params["id"]))

    async def api_submissions(request: Request, caller: Caller) -> Response:
        rows = listing(caller, request.query_params)
        headers = {}
        if len(rows) == PAGE:  # a full page: the next one is named (RFC 8288)
            query = urlencode([*((k, v) for k, v in request.query_params.multi_items() if k != "before"),
                               ("before", str(rows[-1]["id"]))])
            headers["Link"] = f'</api/submissions?{query}>; rel="next"'
        return JSONResponse(rows, headers=headers)

    def draft_of(caller: Caller, problem: Problem) -> tuple[str, str]:
        """The student's last code of the problem and its version: the starter file before the first save."""
        code, _ = page.create(Ask(problem, caller))
        return code.text, code.version

    async def api_draft(request: Request, caller: Caller) -> Response:
        code, version = draft_of(caller, problem_of(request.path_params["slug"]))
        return JSONResponse({"code": code, "version": version}, headers={"etag": f'"{version}"'})

    async def api_save_draft(request: Request, caller: Caller) -> Response:
        """PUT with If-Match (the page's PUT /api/problems/<slug>/source, in this API's words)."""
        problem = problem_of(request.path_params["slug"])
        code, based_on = await versioned_save(request, MAX_SOURCE_BYTES)
        try:
            saved = page.save(Ask(problem, caller), code, based_on)
        except Refused as exc:
            exc.extra = {"version": exc.extra["version"], "code": exc.extra["source"]}
            raise
        return JSONResponse({"saved": len(code.encode()), "version": saved.version},
                            headers={"etag": f'"{saved.version}"'})

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
        try:
            form = await form_of(request)
            user = await sign_in(request, form.get("login", ""), form.get("password", ""))
        except Refused as exc:
            return render("signin.html", None, status=exc.status, error=str(exc), headers=exc.headers,
                          next=_next((request.state.form if hasattr(request.state, "form") else {}).get("next")))
        session, _ = store.new_session(user.id)
        response = RedirectResponse(_next(form.get("next")), status_code=303)
        set_session(response, COOKIE, session, request, max_age=14 * 86400)
        return response

    async def signout(request: Request, caller: Caller) -> Response:
        if caller.session:
            store.end_session(caller.session)
        response = RedirectResponse("/signin", status_code=303)
        response.delete_cookie(COOKIE, path="/")
        return response

    async def index(request: Request, caller: Caller) -> Response:
        end = config().end
        left = None if end is None or not config().scoreboard else max(0, int(end - time.time()))
        return render("problems.html", caller, problems=problem_rows(caller), left=left)

    async def problem_page(request: Request, caller: Caller) -> Response:
        """The problem page both servers serve (serving/templates/problem.html), with what this class allows now."""
        problem = problem_of(request.path_params["slug"])
        settings, now, admin, lang = config(), time.time(), caller.user.admin, current()
        editorial, label = admin or settings.editorial_now(now), labeler(lang)
        links = [(f"/submissions?problem={problem.slug}", label("nav.submissions")),
                 *([(f"/problems/{problem.slug}/editorial", label("editorial.title"))] if editorial else [])]
        return render("problem.html", caller, notice=None if admin else settings.closed(now), links=links,
                      **problem_api.page_context(problem, settings.mode, label("problem.code"),
                                                 hints=admin or settings.hints_now(now),
                                                 editorial=editorial, force=False, cancel=False, lang=lang))

    async def editorial_page(request: Request, caller: Caller) -> Response:
        problem = problem_of(request.path_params["slug"])
        if not caller.user.admin and not config().editorial_now(time.time()):
            raise Refused(403, "the editorial is closed here (in a contest, until it ends)")
        idea, solutions, _ = explained(problem)  # the page's language (ui) picks the prose
        return render("editorial.html", caller, problem=problem, idea=idea, solutions=solutions)

    async def submit_page(request: Request, caller: Caller) -> Response:
        form = await form_of(request)
        submission = create(caller, request.path_params["slug"], form.get("code", ""))
        # the code sent is kept as the draft too, unless another tab saved since this page loaded
        store.save_draft(caller.user.id, request.path_params["slug"], form.get("code", ""), form.get("version", ""))
        return RedirectResponse(f"/submissions/{submission}", status_code=303)

    async def submissions_page(request: Request, caller: Caller) -> Response:
        params = request.query_params
        return render("submissions.html", caller, rows=listing(caller, params), problems=list(class_problems_now()),
                      verdicts=VERDICTS, statuses=["queued", "judging", "done"], chosen=dict(params))

    async def submission_page(request: Request, caller: Caller) -> Response:
        shown = visible(caller, request.path_params["id"])
        diff = None
        if shown["user"] == caller.user.name and shown["problem"] in class_problems_now():
            now, _ = draft_of(caller, problem_of(shown["problem"]))
            diff = list(difflib.unified_diff(shown["code"].splitlines(), now.splitlines(),
                                             f"submission {shown['id']}", "your code now", lineterm="", n=3))
        return render("submission.html", caller, s=shown, diff=diff)

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
        ended = store.end_other_sessions(caller.user.id, caller.session)
        token = store.new_token(caller.user.id)  # whoever held the old password may hold the token too
        return render("account.html", caller, token=token,
                      message=f"password changed: {ended} other session(s) signed out, the API token replaced")

    async def rejudge_one_page(request: Request, caller: Caller) -> Response:
        visible(caller, request.path_params["id"])
        rejudge([int(request.path_params["id"])])
        return RedirectResponse(f"/submissions/{request.path_params['id']}", status_code=303)

    async def rejudge_problem_page(request: Request, caller: Caller) -> Response:
        problem = problem_of(request.path_params["slug"])
        rejudge(store.problem_submissions(problem.slug))
        return RedirectResponse(f"/submissions?problem={problem.slug}", status_code=303)

    async def favicon(request: Request) -> Response:
        """None: answered, so that no page's console logs a 404 for the icon browsers ask on their own."""
        return Response(status_code=204)

    routes = [
        Route("/favicon.ico", favicon),
        Route("/signin", signin_page, methods=["GET", "POST"]),
        Route("/signout", endpoint(signout, changes=True, page=True), methods=["POST"]),
        Route("/", endpoint(index, page=True)),
        Route("/problems/{slug}", endpoint(problem_page, page=True)),
        Route("/problems/{slug}/editorial", endpoint(editorial_page, page=True)),
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
        Route("/api/problems/{slug}/draft", endpoint(api_draft), methods=["GET"]),
        Route("/api/problems/{slug}/draft", endpoint(api_save_draft, changes=True), methods=["PUT"]),
        *problem_api.routes(page, lambda handler, changes=False: endpoint(handler, changes=changes)),
        Route("/api/scoreboard", endpoint(api_scoreboard)),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        await asyncio.to_thread(judges.start)
        yield
        page.close()
        await asyncio.to_thread(judges.close)

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.store, app.state.judges = store, judges
    served = Languages(app)
    fixed = allowed_hosts(host, port) | host_names(names, port)

    def hosts() -> set[str]:
        return fixed | host_names(config().hosts, port)

    return Guard(served, hosts, SAME_ORIGIN, host_hint=" (class.toml's hosts, or serve --allow-host, names more)"
                 )  # type: ignore[return-value]  # an ASGI app like Starlette's


def _sign_in(store: Store, login: str, password: str) -> User | None:
    row = store.user_row(login) if login else None
    if row is None:
        check_password(password, "scrypt$16384$8$1$00$00")  # as slow as a real check: names are not told apart
        return None
    return store.user(row["id"]) if check_password(password, row["password"]) else None


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


def _prose(text: str) -> Markup:
    """A package's prose as HTML: escaped, its $...$ in elements that class.js typesets with KaTeX."""
    return Markup(re.sub(r"\$([^$]+)\$", r'<span class="math">\1</span>', str(escape(text))))


def limits(problems: Mapping[str, Problem], slug: str) -> tuple[object, object]:
    """A problem's CPU and memory limits, for a page's script to show figures as figure() does."""
    problem = problems.get(slug)
    return ("", "") if problem is None else (problem.time_limit_ms, problem.memory_limit_mb)


def _when(timestamp: float | None) -> str:
    if timestamp is None:
        return ""
    return dt.datetime.fromtimestamp(timestamp, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
