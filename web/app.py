"""The web page's server: pages and a small JSON API over the practice layer and the judge.

Safety, as for any local server that runs code (docs/web.md): before any routing, serving/access.py
checks the Host and the token (from the URL the server printed, then a cookie); a request that
changes something must also come from this page (its Origin is this server, and it carries the
page's CSRF header, which another site cannot set without a CORS grant this server never gives),
and only a POST, PUT or DELETE changes anything. Problem names are checked against the problems
that exist and file names against one pattern, so no path leaves practice/. Bodies are bounded
before they are read, the judging queue is bounded, and the editorial is read in a bounded pool.

A save names the version of the file it was based on (If-Match: the sha256 the last GET or save
gave); a file changed since (in another tab, or in a terminal) is a 409 with what is on disk,
never a silent overwrite.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import hashlib
import json
import os
import re
import secrets
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from coach import history
from coach.case import MAX_CASE_BYTES, fields, parse_case
from coach.editorial import editorial
from coach.starter import write_starter
from grading.source import MAX_SOURCE_BYTES
from problems import Problem, ProblemError, all_problems
from problems.package import by_difficulty
from serving.access import CSRF_HEADER, NO_REFERRER, Guard, allowed_hosts, check_change
from serving.answers import Refused, error, read_body, refusal, versioned_save
from web import statement
from web.jobs import Busy, Job, JobQueue, judge_command

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FILE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,80}\.py")
ABSENT = "absent"  # the version of a file that is not there
EDITORIAL_WORKERS = 2
STREAM_POLL_S = 0.1


def version_of(data: bytes | None) -> str:
    return ABSENT if data is None else hashlib.sha256(data).hexdigest()


def create_app(token: str, practice: Path | None = None, workers: int | None = None, host: str = "127.0.0.1",
               port: int = 8000, max_queued: int | None = None) -> Guard:
    """The application; `practice` is where users' files live (the terminal's practice/), `host`
    and `port` what the server is reached as (the Host check)."""
    practice = (practice or ROOT / "practice").resolve()
    session, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)  # this process's (serving/access.py)
    jobs = JobQueue(workers, **({"max_queued": max_queued} if max_queued is not None else {}))
    pages = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape())
    pool = ThreadPoolExecutor(EDITORIAL_WORKERS, thread_name_prefix="editorial")
    saving = threading.Lock()  # a save's check and write are one step

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

    def guarded(handler, changes: bool = False):
        async def endpoint(request: Request) -> Response:
            try:
                if changes:
                    check_change(request, request.headers.get(CSRF_HEADER, ""), csrf)
                return await handler(request)
            except Refused as exc:
                return refusal(request, exc)
            except Busy as exc:
                return error(request.url.path, exc.status, str(exc))
            except ProblemError as exc:
                return error(request.url.path, 400, str(exc))
        return endpoint

    def page(name: str, **context) -> HTMLResponse:
        return HTMLResponse(pages.get_template(name).render(csrf=csrf, **context))

    # -- pages ---------------------------------------------------------------------------------
    async def index(request: Request) -> Response:
        listed = _listing(problems())
        tag = request.query_params.get("tag", "")
        tags = sorted({t for p in listed for t in p["tags"]})
        shown_ = [p for p in listed if not tag or tag in p["tags"]]
        return page("list.html", problems=shown_, tags=tags, tag=tag)

    async def problem_page(request: Request) -> Response:
        problem = problem_of(request)
        return page("problem.html", problem=problem, has_zh=(problem.root / "spec.zh.md").is_file(),
                    file=file_of(request, problem).name)

    async def favicon(request: Request) -> Response:
        return Response(status_code=204)

    # -- API -----------------------------------------------------------------------------------
    async def api_ping(request: Request) -> Response:
        return JSONResponse({"ok": True, **jobs.counts()})

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

    def source_answer(path: Path, data: bytes, **more) -> JSONResponse:
        version = version_of(data)
        return JSONResponse({"file": path.name, "source": data.decode("utf-8", errors="replace"),
                             "version": version, **more}, headers={"etag": f'"{version}"'})

    async def api_source(request: Request) -> Response:
        """GET: the file and its version (404 when it does not exist: creating is a POST)."""
        path = file_of(request, problem_of(request))
        data = _read(path)
        if data is None:
            raise Refused(404, f"practice/{path.name} does not exist yet", {"version": ABSENT})
        return source_answer(path, data)

    async def api_create(request: Request) -> Response:
        """POST: the starter file, when the file does not exist (never over one that does)."""
        problem = problem_of(request)
        path = file_of(request, problem)
        created = False
        with saving:
            if not path.exists():
                try:
                    write_starter(problem, path)
                    created = True
                except FileExistsError:
                    pass
        data = _read(path)
        if data is None:
            raise Refused(500, f"practice/{path.name} could not be created")
        return source_answer(path, data, created=created)

    async def api_save(request: Request) -> Response:
        """PUT with If-Match: the version the text was based on; 409 with the file on disk when
        it has changed since, 428 when the request names no version."""
        path = file_of(request, problem_of(request))
        text, based_on = await versioned_save(request, MAX_SOURCE_BYTES)
        body = text.encode("utf-8")
        with saving:
            current = _read(path)
            if version_of(current) != based_on:
                raise Refused(409, f"practice/{path.name} changed on disk since this text was loaded",
                              {"version": version_of(current), "source": None if current is None
                               else current.decode("utf-8", errors="replace")})
            _write(path, body)
        return JSONResponse({"saved": path.name, "bytes": len(body), "version": version_of(body)},
                            headers={"etag": f'"{version_of(body)}"'})

    async def api_sample(request: Request) -> Response:
        """The sample's input, or with ?test=NAME a stored test's (a failing test used as one's own input),
        and the arguments the own-input editor shows a field for."""
        problem = problem_of(request)
        files = problem.test_files()
        name = request.query_params.get("test")
        chosen = files[0] if name is None else next((f for f in files if f.stem == name), None)
        if chosen is None:
            raise Refused(404, f"{problem.slug} has no stored test {name!r}")
        given = json.loads(chosen.read_text(encoding="utf-8"))["input"]
        return JSONResponse({"input": given, "args": fields(problem)})

    def job_for(problem: Problem, path: Path, kind: str, *args: str, level: int | None = None) -> Job:
        return Job(judge_command(*args), ROOT, file=str(path),
                   about={"kind": kind, "problem": problem.slug, "file": path.name,
                          **({"level": level} if level else {})})

    async def api_run(request: Request) -> Response:
        problem = problem_of(request)
        path = _existing(file_of(request, problem))
        raw = await read_body(request, MAX_CASE_BYTES, "the input")
        job = job_for(problem, path, "run", "run", str(path), "--problem", problem.slug, "--json")
        if raw.strip():
            try:
                given = parse_case(raw, "the input")["input"]
            except ProblemError as exc:
                raise Refused(400, str(exc)) from None
            with tempfile.NamedTemporaryFile("w", suffix=".json", prefix="your-input-", delete=False) as f:
                json.dump({"input": given}, f)
            job.argv += ["--input", f.name]
            job.cleanup.append(Path(f.name))
            job.aliases[f.name] = "your input"
            job.about["input"] = "your input"
        return JSONResponse(jobs.submit(job).summary())

    async def api_submit(request: Request) -> Response:
        problem = problem_of(request)
        path = _existing(file_of(request, problem))
        return JSONResponse(jobs.submit(job_for(problem, path, "submit", str(path), "--problem", problem.slug,
                                                "--json", "--progress")).summary())

    async def api_hint(request: Request) -> Response:
        problem = problem_of(request)
        path = _existing(file_of(request, problem))
        level = request.query_params.get("level", "1")
        if level not in ("1", "2"):
            raise Refused(400, f"level={level!r}: 1 or 2")
        return JSONResponse(jobs.submit(job_for(problem, path, "hint", str(path), "--problem", problem.slug, "--json",
                                                "--progress", "--hint", level, level=int(level))).summary())

    async def api_active(request: Request) -> Response:
        """The judging of this file that has not ended, if any: a reloaded page follows it again."""
        path = file_of(request, problem_of(request))
        job = jobs.active(str(path))
        return JSONResponse(job.summary() if job else {"job": None})

    async def api_history(request: Request) -> Response:
        problem = problem_of(request)
        return JSONResponse([j.as_dict() for j in await asyncio.to_thread(history.judgings, problem.slug)])

    async def api_judging(request: Request) -> Response:
        """One judging of the history: the code it judged, and its diff against the file now."""
        problem = problem_of(request)
        path = file_of(request, problem)
        wanted = request.path_params["id"]
        found = next((j for j in await asyncio.to_thread(history.judgings, problem.slug) if str(j.id) == wanted), None)
        if found is None:
            raise Refused(404, f"no judging {wanted} of {problem.slug}")
        code = await asyncio.to_thread(history.source_of, found.sha256)
        source = None if code is None else code.decode("utf-8", errors="replace")
        now = _read(path)
        diff = None
        if source is not None and now is not None:
            diff = list(difflib.unified_diff(source.splitlines(), now.decode("utf-8", errors="replace").splitlines(),
                                             f"judged {found.time}", f"practice/{path.name} now", lineterm="", n=3))
        return JSONResponse({"judging": found.as_dict(), "source": source, "diff": diff,
                             "same": now is not None and code is not None and code == now})

    async def api_editorial(request: Request) -> Response:
        problem = problem_of(request)
        force = request.query_params.get("force") == "1"
        found = await asyncio.get_running_loop().run_in_executor(pool, editorial, problem, force)
        return JSONResponse(found.as_dict())

    def job_of(request: Request) -> Job:
        job = jobs.jobs.get(request.path_params["job"])
        if job is None:
            raise Refused(404, "no such judging (finished long ago, never started, or lost with a restart)")
        return job

    async def api_job(request: Request) -> Response:
        return JSONResponse(job_of(request).summary())

    async def api_events(request: Request) -> Response:
        job = job_of(request)

        async def stream():
            seen = 0
            while True:
                new, ended = job.snapshot(seen)  # polled: no thread is held per page that follows a judging
                for event in new:
                    yield f"event: {event['event']}\ndata: {json.dumps(event)}\n\n"
                seen += len(new)
                if ended and not new:
                    return
                if jobs.closing.is_set():  # the server stops: the page is told, the stream ends now
                    yield 'event: closing\ndata: {"event": "closing"}\n\n'
                    return
                if await request.is_disconnected():
                    return
                if not new:
                    await asyncio.sleep(STREAM_POLL_S)

        return StreamingResponse(stream(), media_type="text/event-stream")

    async def api_cancel(request: Request) -> Response:
        job = job_of(request)
        await asyncio.to_thread(jobs.cancel, job)
        return JSONResponse(job.summary())

    routes = [
        Route("/", guarded(index)),
        Route("/favicon.ico", guarded(favicon)),
        Route("/problem/{slug}", guarded(problem_page)),
        Route("/api/ping", guarded(api_ping)),
        Route("/api/problems", guarded(api_problems)),
        Route("/api/problems/{slug}/statement", guarded(api_statement)),
        Route("/api/problems/{slug}/sample", guarded(api_sample)),
        Route("/api/problems/{slug}/source", guarded(api_source), methods=["GET"]),
        Route("/api/problems/{slug}/source", guarded(api_create, changes=True), methods=["POST"]),
        Route("/api/problems/{slug}/source", guarded(api_save, changes=True), methods=["PUT"]),
        Route("/api/problems/{slug}/run", guarded(api_run, changes=True), methods=["POST"]),
        Route("/api/problems/{slug}/submit", guarded(api_submit, changes=True), methods=["POST"]),
        Route("/api/problems/{slug}/hint", guarded(api_hint, changes=True), methods=["POST"]),
        Route("/api/problems/{slug}/active", guarded(api_active)),
        Route("/api/problems/{slug}/history", guarded(api_history)),
        Route("/api/problems/{slug}/history/{id}", guarded(api_judging)),
        Route("/api/problems/{slug}/editorial", guarded(api_editorial)),
        Route("/api/jobs/{job}", guarded(api_job)),
        Route("/api/jobs/{job}/events", guarded(api_events)),
        Route("/api/jobs/{job}/cancel", guarded(api_cancel, changes=True), methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        yield
        await asyncio.to_thread(jobs.close)  # no judging outlives the server
        pool.shutdown(wait=False, cancel_futures=True)

    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        404: lambda request, exc: error(request.url.path, 404, f"nothing at {request.url.path}"),
        405: lambda request, exc: error(request.url.path, 405, f"{request.method} is not allowed here"),
    })
    app.state.jobs = jobs
    app.state.shutdown = jobs.shutdown  # the server's signal handler calls it first (web/cli.py)
    hosts = allowed_hosts(host, port)
    return Guard(app, lambda: hosts, NO_REFERRER, token=token, session=session)


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def _write(path: Path, data: bytes) -> None:
    """Replace the file in one step (a judging or a terminal never reads half of it), keeping its mode."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = 0o644
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".saving", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _existing(path: Path) -> Path:
    if not path.is_file():
        raise Refused(404, f"practice/{path.name} does not exist yet: open the problem page to create it")
    return path


def _listing(problems: dict[str, Problem]) -> list[dict]:
    """Every problem, easiest first, with its tags and the user's standing."""
    past = history.judgings()
    return [{"slug": p.slug, "id": p.id, "title": p.title, "titles": p.titles, "difficulty": p.difficulty,
             "tags": list(p.tags), "kind": "interactive" if p.interactive else "function",
             **history.standing(p.slug, past, len(p.test_files()))}
            for p in by_difficulty(list(problems.values()))]
