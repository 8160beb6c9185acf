"""The studio's web application (Starlette): the page, its static files and the API.

``GET /api/{generate|blockwise|dungeon}?size=20x30&seed=7&format=schem&...`` returns the file
``blockmaze generate 20x30 --seed 7 -o maze.schem ...`` writes (see :mod:`blockmaze.web.jobs`);
``POST`` the same with a mask picture or text as the body. ``GET /api/carve?...`` returns the
maze's carve order (JSON) for the page's animation.

A server is hostile territory (any page a user visits can send it requests): only loopback
``Host`` and ``Origin`` names are answered (others get 403), a body is refused as soon as its
declared or streamed size passes the limit, each job runs in a process of its own that is
stopped when its client goes or its time is up, and jobs wait in a bounded queue (a full one
answers 503), so the page itself always answers.

Example
-------
>>> from starlette.testclient import TestClient
>>> client = TestClient(create_app(), base_url="http://localhost")
>>> client.get("/api/generate?size=3x4&seed=1&format=maze").json()["seed"]
1
>>> client.get("/", headers={"host": "evil.example"}).status_code
403
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import threading
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .jobs import Job, Limits, RequestError
from .workers import Workers

STATIC = Path(__file__).with_name("static")
LOOPBACK_NAMES = frozenset({"localhost", "localhost.", "ip6-localhost"})


@dataclass(frozen=True)
class Settings:
    """The server's bounds: ``limits`` per request, ``workers`` jobs at once and ``queue`` more
    waiting (beyond that: 503), ``seconds`` a job may take (then 504), ``rate`` requests a client
    may make per minute (more get 429), ``mask_bytes`` per upload, the ``hosts`` its pages
    may be asked for by (loopback names and addresses are always allowed), ``head_seconds`` a
    connection has to send a request's head and ``connections`` open at once
    (:mod:`.connections`).
    """

    limits: Limits = Limits()
    workers: int = 4
    queue: int = 32
    seconds: float = 120.0
    rate: int = 1200
    mask_bytes: int = 4 << 20
    head_seconds: float = 10.0
    connections: int = 256
    hosts: frozenset[str] = field(default_factory=frozenset)


class RateLimit:
    """At most ``rate`` requests per client in any 60 seconds."""

    def __init__(self, rate: int):
        self.rate = rate
        self.seen: dict[str, deque] = defaultdict(deque)
        self.lock = threading.Lock()

    def allow(self, client: str) -> bool:
        now = time.monotonic()
        with self.lock:
            times = self.seen[client]
            while times and now - times[0] > 60:
                times.popleft()
            if len(times) >= self.rate:
                return False
            times.append(now)
            return True


def allowed_host(name: str, extra: frozenset[str] = frozenset()) -> bool:
    """Whether a request naming the server ``name`` (a Host header's or an Origin's host, port
    left off) may be answered: a loopback name or address, or one of ``extra``.

    >>> [allowed_host(n) for n in ("localhost", "127.0.0.1", "::1", "evil.example", "10.0.0.1")]
    [True, True, True, False, False]
    """
    name = name.strip().lower().strip("[]")
    if name in LOOPBACK_NAMES or name in extra:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _host_of(value: str) -> str:
    """The host of a Host header (``name:port``, ``[::1]:port``) without its port."""
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class Guard:
    """ASGI middleware that answers 403 to a request whose ``Host`` or ``Origin`` is not this
    machine's own (DNS rebinding, cross-site forms and images), before the application sees it."""

    def __init__(self, app, hosts: frozenset[str]):
        self.app, self.hosts = app, hosts

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            host = _host_of(headers.get("host", ""))
            origin = headers.get("origin")
            foreign = not allowed_host(host, self.hosts) or (
                origin is not None and not allowed_host(urlsplit(origin).hostname or "", self.hosts))
            if foreign:
                await _error("this studio answers pages of its own machine only "
                             "(Host and Origin must be localhost)", 403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def read_body(request: Request, limit: int) -> bytes | None:
    """The request's body, refused (RequestError 413) as soon as its declared or streamed size
    passes ``limit``; a body that stalls for 10 seconds is refused too (408)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise RequestError(f"a mask is at most {limit} bytes", 413)
    chunks, size = [], 0
    stream = request.stream().__aiter__()
    while True:
        try:
            chunk = await asyncio.wait_for(stream.__anext__(), 10)
        except StopAsyncIteration:
            break
        except asyncio.TimeoutError:
            raise RequestError("the upload stalled; send the mask at once", 408) from None
        size += len(chunk)
        if size > limit:
            raise RequestError(f"a mask is at most {limit} bytes", 413)
        chunks.append(chunk)
    return b"".join(chunks) or None


def create_app(settings: Settings = Settings()) -> Starlette:
    """The studio application with ``settings``."""
    workers = Workers(settings.workers, settings.queue, settings.seconds)
    rate = RateLimit(settings.rate)

    async def guarded(request: Request, task) -> Response:
        """Run ``task`` (a picklable call) in a worker process, answering its result or error."""
        client = request.client.host if request.client else "?"
        if not rate.allow(client):
            return _error(f"more than {settings.rate} requests a minute; wait a moment", 429)
        try:
            return await workers.run(task, request.is_disconnected)
        except RequestError as error:
            return _error(str(error), error.status)

    async def api(request: Request):
        command = request.path_params["command"]
        query = dict(request.query_params)
        disposition = "inline" if query.pop("inline", None) else "attachment"
        try:
            mask = await read_body(request, settings.mask_bytes) if request.method == "POST" else None
            job = Job.from_query(command, query, mask)
        except RequestError as error:
            return _error(str(error), error.status)
        answer = await guarded(request, (_run_job, job, settings.limits))
        if isinstance(answer, tuple):
            data, filename, media_type = answer
            return Response(data, media_type=media_type, headers={
                "Content-Disposition": f'{disposition}; filename="{filename}"',
                "Cache-Control": "no-store"})
        return answer

    async def carve(request: Request):
        query = dict(request.query_params)
        try:
            mask = await read_body(request, settings.mask_bytes) if request.method == "POST" else None
        except RequestError as error:
            return _error(str(error), error.status)
        answer = await guarded(request, (_carve, query, settings.limits, mask))
        return JSONResponse(answer) if isinstance(answer, dict) else answer

    async def options(request: Request):
        from .jobs import describe

        return JSONResponse(describe())

    async def page(request: Request):
        return FileResponse(STATIC / "index.html")

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        workers.close()  # the server stops: so do its jobs

    app = Starlette(routes=[
        Route("/", page),
        Route("/api/options", options),
        Route("/api/carve", carve, methods=["GET", "POST"]),
        Route("/api/{command}", api, methods=["GET", "POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], lifespan=lifespan)
    app.add_middleware(Guard, hosts=settings.hosts)
    return app


def _run_job(job: Job, limits: Limits, folder: str):
    """In a worker: the job's file as (bytes, name, media type)."""
    result = job.run(limits, folder)
    return result.data, result.filename, result.media_type


def _carve(query: dict, limits: Limits, mask: bytes | None, folder: str):
    """In a worker: the carve record of a generate query."""
    from .carving import carve_record

    return carve_record(query, limits, mask, folder)


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)
