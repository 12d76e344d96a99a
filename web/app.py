"""The web page's server: the problem list, and the problem page (serving/problem_api.py) over
the practice files and the judge (web/practice.py).

Safety, as for any local server that runs code (docs/web.md): before any routing, serving/access.py
checks the Host and the token (from the URL the server printed, then a cookie); a request that
changes something must also come from this page (its Origin is this server, and it carries the
page's CSRF header, which another site cannot set without a CORS grant this server never gives),
and only a POST, PUT or DELETE changes anything. Problem names are checked against the problems
that exist and file names against one pattern, so no path leaves practice/. Bodies are bounded
before they are read, the judging queue is bounded, and the editorial is read in a bounded pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from coach import history
from problems import Problem, ProblemError
from problems.package import by_difficulty
from serving import problem_api
from serving.access import CSRF_HEADER, NO_REFERRER, Guard, allowed_hosts, check_change
from serving.answers import Refused, error, refusal
from web.jobs import JobQueue
from web.practice import PracticeStore

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def create_app(token: str, practice: Path | None = None, workers: int | None = None, host: str = "127.0.0.1",
               port: int = 8000, max_queued: int | None = None) -> Guard:
    """The application; `practice` is where users' files live (the terminal's practice/), `host`
    and `port` what the server is reached as (the Host check)."""
    practice = (practice or ROOT / "practice").resolve()
    session, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)  # this process's (serving/access.py)
    jobs = JobQueue(workers, **({"max_queued": max_queued} if max_queued is not None else {}))
    store = PracticeStore(practice, jobs)
    pages = Environment(loader=FileSystemLoader([HERE / "templates", problem_api.TEMPLATES]),
                        autoescape=select_autoescape())

    def guarded(handler, changes: bool = False):
        async def endpoint(request: Request) -> Response:
            try:
                if changes:
                    check_change(request, request.headers.get(CSRF_HEADER, ""), csrf)
                return await handler(request, None)
            except Refused as exc:
                return refusal(request, exc)
            except ProblemError as exc:
                return error(request.url.path, 400, str(exc))
        return endpoint

    def page(name: str, **context) -> HTMLResponse:
        return HTMLResponse(pages.get_template(name).render(csrf=csrf, **context))

    async def index(request: Request, who: None) -> Response:
        listed = _listing(store.problems())
        tag = request.query_params.get("tag", "")
        tags = sorted({t for p in listed for t in p["tags"]})
        shown_ = [p for p in listed if not tag or tag in p["tags"]]
        return page("list.html", problems=shown_, tags=tags, tag=tag)

    async def problem_page(request: Request, who: None) -> Response:
        problem = store.problem(request.path_params["slug"])
        file = store.path(problem_api.Ask(problem, None, request.query_params.get("file"))).name
        return page("problem.html", file=file, **problem_api.page_context(
            problem, "practice", f"practice/{file}", file=file, hints=True, editorial=True, force=True, cancel=True))

    async def favicon(request: Request, who: None) -> Response:
        return Response(status_code=204)

    async def api_problems(request: Request, who: None) -> Response:
        return JSONResponse(_listing(store.problems()))

    routes = [
        Route("/", guarded(index)),
        Route("/favicon.ico", guarded(favicon)),
        Route("/problem/{slug}", guarded(problem_page)),
        Route("/api/problems", guarded(api_problems)),
        *problem_api.routes(store, guarded),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        yield
        await asyncio.to_thread(jobs.close)  # no judging outlives the server
        store.close()

    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        404: lambda request, exc: error(request.url.path, 404, f"nothing at {request.url.path}"),
        405: lambda request, exc: error(request.url.path, 405, f"{request.method} is not allowed here"),
    })
    app.state.jobs = jobs
    app.state.shutdown = jobs.shutdown  # the server's signal handler calls it first (web/cli.py)
    hosts = allowed_hosts(host, port)
    return Guard(app, lambda: hosts, NO_REFERRER, token=token, session=session)


def _listing(problems: dict[str, Problem]) -> list[dict]:
    """Every problem, easiest first, with its tags and the user's standing."""
    past = history.judgings()
    return [{"slug": p.slug, "id": p.id, "title": p.title, "titles": p.titles, "difficulty": p.difficulty,
             "tags": list(p.tags), "kind": "interactive" if p.interactive else "function",
             **history.standing(p.slug, past, len(p.test_files()))}
            for p in by_difficulty(list(problems.values()))]
