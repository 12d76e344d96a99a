"""The problem page's routes, defined once for both servers over a ProblemStore (serving/store.py):
the page (serving/templates/problem.html, serving/static/page.js) reads the same JSON from either.

Each server wraps every handler with its own checks (`wrap(handler, changes)`: the practice token
and CSRF, or the class's session or Bearer token and CSRF) and passes who asks to the handler.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from coach.case import MAX_CASE_BYTES
from grading.source import MAX_SOURCE_BYTES
from problems import Problem
from serving import statement
from serving.answers import Refused, read_body, versioned_save
from serving.store import Ask, ProblemStore

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
VENDOR = HERE / "vendor"  # KaTeX and CodeMirror, vendored by serving/vendor.sh
PAGE_STATIC = "/page"  # where both servers serve the page's script and CSS
STREAM_POLL_S = 0.1

Handler = Callable[[Request, Any], Awaitable[Response]]


def page_context(problem: Problem, mode: str, where: str, **flags: bool | str) -> dict:
    """What serving/templates/problem.html needs: the problem and what the page may do, given to
    page.js as data attributes (mode: practice, class or contest; hints, editorial, force, cancel)."""
    data = {"slug": problem.slug, "mode": mode, "where": where, "time-limit": problem.time_limit_ms,
            "memory-limit": problem.memory_limit_mb,
            **{k: ("1" if v else "0") if isinstance(v, bool) else v for k, v in flags.items()}}
    return {"problem": problem, "has_zh": (problem.root / "spec.zh.md").is_file(), "data": data, "where": where}


def routes(store: ProblemStore, wrap: Callable[..., Callable[[Request], Awaitable[Response]]]) -> list[BaseRoute]:
    def ask(request: Request, who: Any) -> Ask:
        lang = request.query_params.get("lang", "en")
        return Ask(store.problem(request.path_params["slug"], who), who, request.query_params.get("file"),
                   lang if lang in ("en", "zh") else "en")

    def etag(body: dict) -> JSONResponse:
        return JSONResponse(body, headers={"etag": f'"{body["version"]}"'})

    async def api_ping(request: Request, who: Any) -> Response:
        return JSONResponse(store.ping(who))

    async def api_statement(request: Request, who: Any) -> Response:
        problem = store.problem(request.path_params["slug"], who)
        lang = request.query_params.get("lang", "en")
        if lang not in ("en", "zh"):
            raise Refused(400, f"lang={lang!r}: en or zh")
        path = problem.root / ("spec.zh.md" if lang == "zh" else "spec.md")
        if not path.is_file():
            raise Refused(404, f"{problem.slug} has no statement in {lang}")
        return JSONResponse({"lang": lang, "html": statement.render(path)})

    async def api_sample(request: Request, who: Any) -> Response:
        return JSONResponse(store.sample(ask(request, who), request.query_params.get("test")))

    async def api_source(request: Request, who: Any) -> Response:
        """GET: the code and its version (404 when there is none yet: creating it is a POST)."""
        found = store.load(ask(request, who))
        if found is None:
            raise Refused(404, f"{ask(request, who).file or 'the file'} does not exist yet", {"version": "absent"})
        return etag(found.as_dict())

    async def api_create(request: Request, who: Any) -> Response:
        code, created = store.create(ask(request, who))
        return etag(code.as_dict(created=created))

    async def api_save(request: Request, who: Any) -> Response:
        """PUT with If-Match: the version the text was based on (409 with what is there when it changed
        since, 428 when the request names none)."""
        asked = ask(request, who)
        text, based_on = await versioned_save(request, MAX_SOURCE_BYTES)
        saved = await asyncio.to_thread(store.save, asked, text, based_on)
        return etag({"saved": saved.where, "bytes": len(text.encode("utf-8")), "version": saved.version})

    async def api_run(request: Request, who: Any) -> Response:
        asked = ask(request, who)
        body = await read_body(request, store.run_bytes, "the input")
        return JSONResponse(await asyncio.to_thread(store.run, asked, body))

    async def api_submit(request: Request, who: Any) -> Response:
        return JSONResponse(await asyncio.to_thread(store.submit, ask(request, who)))

    async def api_hint(request: Request, who: Any) -> Response:
        asked = ask(request, who)
        level = request.query_params.get("level", "1")
        if level not in ("1", "2"):
            raise Refused(400, f"level={level!r}: 1 or 2")
        body = await read_body(request, MAX_CASE_BYTES, "the input")
        return JSONResponse(await asyncio.to_thread(store.hint, asked, int(level), body))

    async def api_active(request: Request, who: Any) -> Response:
        return JSONResponse(store.active(ask(request, who)))

    async def api_history(request: Request, who: Any) -> Response:
        return JSONResponse(await asyncio.to_thread(store.history, ask(request, who)))

    async def api_judging(request: Request, who: Any) -> Response:
        return JSONResponse(await asyncio.to_thread(store.judging, ask(request, who), request.path_params["id"]))

    async def api_editorial(request: Request, who: Any) -> Response:
        force = request.query_params.get("force") == "1"
        return JSONResponse(await asyncio.to_thread(store.editorial, ask(request, who), force))

    async def api_job(request: Request, who: Any) -> Response:
        return JSONResponse(store.job(request.path_params["job"], who).summary())

    async def api_events(request: Request, who: Any) -> Response:
        job = store.job(request.path_params["job"], who)

        async def stream():
            seen = 0
            while True:
                new, ended = job.snapshot(seen)  # polled: no thread is held per page that follows a judging
                for event in new:
                    yield f"event: {event['event']}\ndata: {json.dumps(event)}\n\n"
                seen += len(new)
                if ended and not new:
                    return
                if store.stopping():  # the server stops: the page is told, the stream ends now
                    yield 'event: closing\ndata: {"event": "closing"}\n\n'
                    return
                if await request.is_disconnected():
                    return
                if not new:
                    await asyncio.sleep(STREAM_POLL_S)

        return StreamingResponse(stream(), media_type="text/event-stream")

    async def api_cancel(request: Request, who: Any) -> Response:
        job = store.job(request.path_params["job"], who)
        return JSONResponse(await asyncio.to_thread(store.cancel, job, who))

    problem = "/api/problems/{slug}"
    return [
        Route("/api/ping", wrap(api_ping)),
        Route(f"{problem}/statement", wrap(api_statement)),
        Route(f"{problem}/sample", wrap(api_sample)),
        Route(f"{problem}/source", wrap(api_source), methods=["GET"]),
        Route(f"{problem}/source", wrap(api_create, changes=True), methods=["POST"]),
        Route(f"{problem}/source", wrap(api_save, changes=True), methods=["PUT"]),
        Route(f"{problem}/run", wrap(api_run, changes=True), methods=["POST"]),
        Route(f"{problem}/submit", wrap(api_submit, changes=True), methods=["POST"]),
        Route(f"{problem}/hint", wrap(api_hint, changes=True), methods=["POST"]),
        Route(f"{problem}/active", wrap(api_active)),
        Route(f"{problem}/history", wrap(api_history)),
        Route(f"{problem}/history/{{id}}", wrap(api_judging)),
        Route(f"{problem}/editorial", wrap(api_editorial)),
        Route("/api/jobs/{job}", wrap(api_job)),
        Route("/api/jobs/{job}/events", wrap(api_events)),
        Route("/api/jobs/{job}/cancel", wrap(api_cancel, changes=True), methods=["POST"]),
        Mount(PAGE_STATIC, StaticFiles(directory=STATIC), name="page"),
        Mount("/vendor", StaticFiles(directory=VENDOR), name="vendor"),
    ]
