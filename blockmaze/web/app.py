"""The studio's web application (Starlette): the page, its static files and the API.

``GET /api/{generate|blockwise|dungeon}?size=20x30&seed=7&format=schem&...`` returns the file
``blockmaze generate 20x30 --seed 7 -o maze.schem ...`` writes (see :mod:`blockmaze.web.jobs`);
``POST`` the same with a mask picture or text as the body. ``GET /api/carve?...`` returns the
maze's carve order (JSON) for the page's animation.

A server is hostile territory (any page a user visits can send it requests): only a ``Host``
and ``Origin`` of a loopback name and the server's port are answered, and no request a browser
marks as sent by another site (others get 403), a body is refused as soon as its declared or
streamed size passes the limit or its time is up, each job runs in a process of its own that is
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
import re
import threading
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..commands import options_of
from .jobs import Job, Limits, RequestError
from .workers import Workers

STATIC = Path(__file__).with_name("static")


@dataclass(frozen=True)
class Settings:
    """The server's bounds: ``limits`` per request, ``workers`` jobs at once and ``queue`` more
    waiting (beyond that: 503), ``seconds`` a job may take (then 504), ``rate`` requests a client
    may make per minute (more get 429), ``mask_bytes`` per upload, the ``hosts`` its pages
    may be asked for by (``localhost`` and loopback addresses are always allowed),
    ``head_seconds`` a connection has to send a request's head and ``body_seconds`` its body,
    ``connections`` open at once and ``per_client`` of them from one address
    (:mod:`.connections`).
    """

    limits: Limits = field(default_factory=Limits)
    workers: int = 4
    queue: int = 32
    seconds: float = 120.0
    rate: int = field(default_factory=lambda: options_of("serve", "rate")[0].default)
    mask_bytes: int = 4 << 20
    head_seconds: float = 10.0
    body_seconds: float = 20.0
    connections: int = 256
    per_client: int = 128
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


def authority(value: str) -> tuple[str, int | None] | None:
    """The host and port of a URL authority as a Host header or an Origin gives it
    (``name``, ``name:port``, ``[::1]:port``), lower case; None when it is anything else (a user
    part, a path, a stray character).

    >>> authority("LocalHost:8000"), authority("[::1]"), authority("127.0.0.1:80@evil.com")
    (('localhost', 8000), ('[::1]', None), None)
    """
    match = _AUTHORITY.fullmatch(value)
    if match is None:
        return None
    return match[1].lower(), int(match[2]) if match[2] else None


_AUTHORITY = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::([0-9]{1,5}))?")


def allowed_host(name: str, extra: frozenset[str] = frozenset()) -> bool:
    """Whether a request naming the server ``name`` (a Host header's or an Origin's host as
    :func:`authority` gives it) may be answered: ``localhost``, a loopback address written
    out in full, or one of ``extra``.

    >>> [allowed_host(n) for n in ("localhost", "127.0.0.1", "[::1]", "evil.example", "127.1")]
    [True, True, True, False, False]
    """
    if name == "localhost" or name in extra:
        return True
    try:
        address = ipaddress.ip_address(name[1:-1] if name.startswith("[") else name)
    except ValueError:
        return False
    written = f"[{address.compressed}]" if address.version == 6 else address.compressed
    return address.is_loopback and name == written


def own_authority(value: str | None, port: int | None, hosts: frozenset[str]) -> bool:
    """Whether ``value`` (a Host header, or an Origin's ``host[:port]``) names this server: an
    allowed host (:func:`allowed_host`) and the server's ``port`` (80 when it leaves it out;
    None: any port, a server with no port of its own)."""
    parts = authority(value or "")
    if parts is None or not allowed_host(parts[0], hosts):
        return False
    return port is None or (parts[1] or 80) == port


class Guard:
    """ASGI middleware that answers 403 to a request whose ``Host`` or ``Origin`` is not this
    server's own (loopback names and this port: DNS rebinding, other sites' forms and images), or
    that the browser marks as sent from another site (``Sec-Fetch-Site``; only the page itself
    may be opened from a link elsewhere), before the application sees it."""

    def __init__(self, app, hosts: frozenset[str]):
        self.app, self.hosts = app, hosts

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            refusal = self.refusal(scope)
            if refusal:
                await _error(refusal, 403)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def refusal(self, scope) -> str | None:
        """Why the request of ``scope`` is not answered, or None."""
        headers: dict[str, list[str]] = defaultdict(list)
        for key, value in scope["headers"]:
            headers[key.decode("latin-1").lower()].append(value.decode("latin-1"))
        server = scope.get("server")
        port = server[1] if server and len(server) > 1 else None
        hosts, origins = headers.get("host", []), headers.get("origin", [])
        origin_ok = all(origin.startswith("http://")
                        and own_authority(origin[len("http://"):], port, self.hosts)
                        for origin in origins)
        if len(hosts) != 1 or not own_authority(hosts[0], port, self.hosts) or not origin_ok:
            return ("this studio answers pages of its own machine only (Host and Origin must "
                    "be localhost and its port)")
        foreign_site = any(site not in ("same-origin", "none")
                           for site in headers.get("sec-fetch-site", []))
        opened = scope.get("path") == "/" and headers.get("sec-fetch-mode") == ["navigate"]
        if foreign_site and not opened:  # (a link elsewhere may open the page itself, no more)
            return "this studio answers its own page only, not requests from other sites"
        return None


async def read_body(request: Request, limit: int, seconds: float = 20.0) -> bytes | None:
    """The request's body, refused (RequestError 413) as soon as its declared or streamed size
    passes ``limit``; a body not all in within ``seconds`` (or that stalls for 10) is refused
    too (408), and one whose client hangs up answers nobody (499)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise RequestError(f"a mask is at most {limit} bytes", 413)
    chunks, size = [], 0
    stream = request.stream().__aiter__()
    deadline = time.monotonic() + seconds
    while True:
        try:
            wait = min(10.0, deadline - time.monotonic())
            if wait <= 0:
                raise asyncio.TimeoutError
            chunk = await asyncio.wait_for(stream.__anext__(), wait)
        except StopAsyncIteration:
            break
        except asyncio.TimeoutError:
            raise RequestError("the upload was too slow; send the mask at once", 408) from None
        except ClientDisconnect:
            raise RequestError("the client went away", 499) from None
        size += len(chunk)
        if size > limit:
            raise RequestError(f"a mask is at most {limit} bytes", 413)
        chunks.append(chunk)
    return b"".join(chunks) or None


def create_app(settings: Settings = Settings()) -> Starlette:
    """The studio application with ``settings``."""
    workers = Workers(settings.workers, settings.queue, settings.seconds)
    rate = RateLimit(settings.rate)

    async def body(request: Request) -> bytes | None:
        if request.method != "POST":
            return None
        return await read_body(request, settings.mask_bytes, settings.body_seconds)

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
            job = Job.from_query(command, query, await body(request))
        except RequestError as error:
            return _error(str(error), error.status)
        answer = await guarded(request, (_run_job, job, settings.limits))
        if isinstance(answer, tuple):
            data, filename, media_type = answer
            return Response(data, media_type=media_type, headers={
                "Content-Disposition": f'{disposition}; filename="{download_name(job, filename)}"',
                "Cache-Control": "no-store"})
        return answer

    async def carve(request: Request):
        query = dict(request.query_params)
        try:
            mask = await body(request)
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
    app.state.workers = workers  # (the server stops them the moment it is told to stop)
    return app


def download_name(job: Job, filename: str) -> str:
    """The name a download is saved under: its command, its grid (unless square), its size and
    its seed, then the suffix of the file the job wrote (``filename``).

    >>> download_name(Job("dungeon", {"seed": "7"}, "tmx", "20x30"), "maze.tmx")
    'dungeon-20x30-seed7.tmx'
    >>> download_name(Job("generate", {"kind": "labyrinth"}, "png", None), "maze.png")
    'generate-labyrinth.png'
    """
    parts = [job.command]
    grid = str(job.values.get("kind") or "square")  # (--grid's value)
    if grid != "square" and grid.isalnum():
        parts.append(grid)
    size = (job.size or "").strip().lower()
    if size and re.fullmatch(r"[0-9]{1,6}(x[0-9]{1,6}){0,2}", size):
        parts.append(size)
    seed = str(job.values.get("seed") or "").strip()
    if seed.isdigit() and len(seed) <= 20:
        parts.append(f"seed{seed}")
    stem, dot, suffix = filename.partition(".")
    return "-".join(parts) + dot + suffix


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
