"""The web page's server: pages and a small JSON API over the practice layer and the judge.

Safety, as for any local server that runs code: every request needs the token (from the URL the
server printed, then a cookie); a request that changes something must also come from this page
(its Origin is this server, and it carries the page's CSRF header, which another site cannot set
without a CORS grant this server never gives). Problem names are checked against the problems
that exist and file names against one pattern, so no path leaves practice/.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import re
import secrets
import tempfile
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from coach import history
from coach.case import MAX_CASE_BYTES, parse_case
from coach.starter import write_starter
from grading.source import MAX_SOURCE_BYTES
from problems import Problem, ProblemError, all_problems
from web import statement
from web.jobs import Job, JobQueue, judge_command

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
COOKIE = "judge_token"
CSRF_HEADER = "x-csrf-token"
FILE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,80}\.py")


class Refused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def create_app(token: str, practice: Path | None = None, workers: int | None = None) -> Starlette:
    """The application; `practice` is where users' files live (the terminal's practice/)."""
    practice = (practice or ROOT / "practice").resolve()
    csrf = secrets.token_urlsafe(24)
    jobs = JobQueue(workers)
    pages = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape())

    def problems() -> dict[str, Problem]:
        return {p.slug: p for p in all_problems()}

    def problem_of(request: Request) -> Problem:
        slug = request.path_params["slug"]
        found = problems().get(slug)
        if found is None:
            raise Refused(404, f"no problem {slug!r}")
        return found

    def file_of(request: Request, problem: Problem) -> Path:
        name = request.query_params.get("file") or f"{problem.slug}.py"
        if not FILE_NAME.fullmatch(name) or ".." in name:
            raise Refused(400, f"{name!r}: a file name is letters, digits, _ . - and ends in .py (no folders)")
        path = (practice / name).resolve()
        if path.parent != practice:
            raise Refused(400, f"{name!r}: not a file in practice/")
        return path

    def check_token(request: Request) -> bool:
        """True when the token came in the URL (the cookie is then set)."""
        given = request.query_params.get("token")
        if given is not None and hmac.compare_digest(given, token):
            return True
        if hmac.compare_digest(request.cookies.get(COOKIE, ""), token):
            return False
        raise Refused(403, "open the URL the server printed (it carries the token)")

    def check_change(request: Request) -> None:
        origin = request.headers.get("origin")
        here = f"{request.url.scheme}://{request.headers.get('host', '')}"
        if origin != here:
            raise Refused(403, f"refused: a change must come from this page (Origin {origin!r})")
        if not hmac.compare_digest(request.headers.get(CSRF_HEADER, ""), csrf):
            raise Refused(403, "refused: the page's CSRF header is missing or wrong")

    def guarded(handler, changes: bool = False):
        async def endpoint(request: Request) -> Response:
            try:
                fresh = check_token(request)
                if changes:
                    check_change(request)
                response = await handler(request)
            except Refused as exc:
                return JSONResponse({"error": str(exc)}, status_code=exc.status)
            except ProblemError as exc:
                return JSONResponse({"error": str(exc)}, status_code=400)
            if fresh:
                response.set_cookie(COOKIE, token, httponly=True, samesite="strict")
            return response
        return endpoint

    def page(name: str, **context) -> HTMLResponse:
        return HTMLResponse(pages.get_template(name).render(csrf=csrf, **context))

    # -- pages ---------------------------------------------------------------------------------
    async def index(request: Request) -> Response:
        return page("list.html", problems=_listing(problems()))

    async def problem_page(request: Request) -> Response:
        problem = problem_of(request)
        return page("problem.html", problem=problem, has_zh=(problem.root / "spec.zh.md").is_file(),
                    file=file_of(request, problem).name)

    # -- API -----------------------------------------------------------------------------------
    async def api_problems(request: Request) -> Response:
        return JSONResponse(_listing(problems()))

    async def api_statement(request: Request) -> Response:
        problem = problem_of(request)
        lang = request.query_params.get("lang", "en")
        if lang not in ("en", "zh"):
            raise Refused(400, f"lang={lang!r}: en or zh")
        path = problem.root / ("spec.zh.md" if lang == "zh" else "spec.md")
        if not path.is_file():
            raise Refused(404, f"{problem.slug} has no statement in {lang}")
        return JSONResponse({"lang": lang, "html": statement.render(path)})

    async def api_source(request: Request) -> Response:
        problem = problem_of(request)
        path = file_of(request, problem)
        if request.method == "PUT":
            body = await request.body()
            if len(body) > MAX_SOURCE_BYTES:
                raise Refused(413, f"the source is {len(body)} bytes, over the judge's limit of {MAX_SOURCE_BYTES}")
            try:
                body.decode("utf-8")
            except UnicodeDecodeError:
                raise Refused(400, "the source is not UTF-8 text") from None
            practice.mkdir(parents=True, exist_ok=True)
            path.write_bytes(body)
            return JSONResponse({"saved": path.name, "bytes": len(body)})
        if not path.is_file():
            write_starter(problem, path)
        return JSONResponse({"file": path.name, "source": path.read_text(encoding="utf-8", errors="replace")})

    async def api_sample(request: Request) -> Response:
        problem = problem_of(request)
        sample = problem.test_files()[0]
        given = json.loads(sample.read_text(encoding="utf-8"))["input"]
        return JSONResponse({"input": given})

    async def api_run(request: Request) -> Response:
        problem = problem_of(request)
        path = _existing(file_of(request, problem))
        args = ["run", str(path), "--problem", problem.slug, "--json"]
        job = Job(judge_command(*args), ROOT)
        raw = await request.body()
        if raw.strip():
            if len(raw) > MAX_CASE_BYTES:
                raise Refused(413, f"the input is {len(raw)} bytes, over {MAX_CASE_BYTES}")
            try:
                given = parse_case(raw, "the input")["input"]
            except ProblemError as exc:
                raise Refused(400, str(exc)) from None
            if given is not None:
                with tempfile.NamedTemporaryFile("w", suffix=".json", prefix="your-input-", delete=False) as f:
                    json.dump({"input": given}, f)
                job.argv += ["--input", f.name]
                job.cleanup.append(Path(f.name))
                job.aliases[f.name] = "your input"
        return JSONResponse({"job": jobs.submit(job).id})

    async def api_submit(request: Request) -> Response:
        problem = problem_of(request)
        path = _existing(file_of(request, problem))
        return JSONResponse({"job": jobs.submit(Job(judge_command(
            str(path), "--problem", problem.slug, "--json", "--progress"), ROOT)).id})

    async def api_hint(request: Request) -> Response:
        problem = problem_of(request)
        path = _existing(file_of(request, problem))
        level = request.query_params.get("level", "1")
        if level not in ("1", "2"):
            raise Refused(400, f"level={level!r}: 1 or 2")
        return JSONResponse({"job": jobs.submit(Job(judge_command(
            str(path), "--problem", problem.slug, "--json", "--progress", "--hint", level), ROOT)).id})

    async def api_history(request: Request) -> Response:
        problem = problem_of(request)
        return JSONResponse([j.as_dict() for j in history.judgings(problem.slug)])

    async def api_editorial(request: Request) -> Response:
        problem = problem_of(request)
        force = request.query_params.get("force") == "1"
        args = ["editorial", problem.slug] + (["--force"] if force else [])
        process = await asyncio.create_subprocess_exec(*judge_command(*args), cwd=ROOT,
                                                       stdout=asyncio.subprocess.PIPE,
                                                       stderr=asyncio.subprocess.PIPE)
        out, err = await process.communicate()
        return JSONResponse({"open": process.returncode == 0,
                             "text": out.decode("utf-8", "replace") or err.decode("utf-8", "replace")})

    def job_of(request: Request) -> Job:
        job = jobs.jobs.get(request.path_params["job"])
        if job is None:
            raise Refused(404, "no such judging (finished long ago, or never started)")
        return job

    async def api_events(request: Request) -> Response:
        job = job_of(request)

        async def stream():
            seen = 0
            while True:
                new, ended = await asyncio.to_thread(job.events_after, seen, 0.5)
                for event in new:
                    yield f"event: {event['event']}\ndata: {json.dumps(event)}\n\n"
                seen += len(new)
                if ended and not new:
                    return
                if await request.is_disconnected():
                    return

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    async def api_cancel(request: Request) -> Response:
        job = job_of(request)
        await asyncio.to_thread(jobs.cancel, job)
        return JSONResponse({"job": job.id, "state": job.state})

    routes = [
        Route("/", guarded(index)),
        Route("/problem/{slug}", guarded(problem_page)),
        Route("/api/problems", guarded(api_problems)),
        Route("/api/problems/{slug}/statement", guarded(api_statement)),
        Route("/api/problems/{slug}/sample", guarded(api_sample)),
        Route("/api/problems/{slug}/source", guarded(api_source), methods=["GET"]),
        Route("/api/problems/{slug}/source", guarded(api_source, changes=True), methods=["PUT"]),
        Route("/api/problems/{slug}/run", guarded(api_run, changes=True), methods=["POST"]),
        Route("/api/problems/{slug}/submit", guarded(api_submit, changes=True), methods=["POST"]),
        Route("/api/problems/{slug}/hint", guarded(api_hint, changes=True), methods=["POST"]),
        Route("/api/problems/{slug}/history", guarded(api_history)),
        Route("/api/problems/{slug}/editorial", guarded(api_editorial)),
        Route("/api/jobs/{job}/events", guarded(api_events)),
        Route("/api/jobs/{job}/cancel", guarded(api_cancel, changes=True), methods=["POST"]),
        Mount("/static", _Guarded(StaticFiles(directory=HERE / "static"), check_token), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        yield
        await asyncio.to_thread(jobs.close)  # Ctrl-C: no judging outlives the server

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.jobs = jobs
    return app


class _Guarded:
    """The static files behind the token too: every request needs it, as the rest of the server."""

    def __init__(self, app, check) -> None:
        self.app, self.check = app, check

    async def __call__(self, scope, receive, send) -> None:
        try:
            self.check(Request(scope))
        except Refused as exc:
            await JSONResponse({"error": str(exc)}, status_code=exc.status)(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _existing(path: Path) -> Path:
    if not path.is_file():
        raise Refused(404, f"practice/{path.name} does not exist yet: open the problem page to create it")
    return path


def _listing(problems: dict[str, Problem]) -> list[dict]:
    past = history.judgings()
    return [{"slug": p.slug, "id": p.id, "title": p.title, "titles": p.titles, "difficulty": p.difficulty,
             "kind": "interactive" if p.interactive else "function", **history.standing(p.slug, past)}
            for p in problems.values()]
