"""The studio's web application (Starlette): the page, its static files and the API.

``GET /api/{generate|blockwise|dungeon}?size=20x30&seed=7&format=schem&...`` returns the file
``blockmaze generate 20x30 --seed 7 -o maze.schem ...`` writes (see :mod:`blockmaze.web.jobs`);
``POST`` the same with a mask picture or text as the body. ``GET /api/carve?...`` returns the
maze's carve order (JSON) for the page's animation.

Example
-------
>>> from starlette.testclient import TestClient
>>> client = TestClient(create_app())
>>> client.get("/api/generate?size=3x4&seed=1&format=maze").json()["seed"]
1
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict, deque
from dataclasses import dataclass
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import BadFileError, BlockmazeError
from .jobs import Job, Limits, RequestError

STATIC = Path(__file__).with_name("static")


@dataclass(frozen=True)
class Settings:
    """The server's bounds: ``limits`` per request, ``workers`` jobs at once (others wait),
    ``rate`` requests a client may make per minute (more get 429), ``mask_bytes`` per upload."""

    limits: Limits = Limits()
    workers: int = 4
    rate: int = 1200
    mask_bytes: int = 4 << 20


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


def create_app(settings: Settings = Settings()) -> Starlette:
    """The studio application with ``settings``."""
    gate = threading.BoundedSemaphore(settings.workers)
    rate = RateLimit(settings.rate)

    async def guarded(request: Request, work):
        client = request.client.host if request.client else "?"
        if not rate.allow(client):
            return _error(f"more than {settings.rate} requests a minute; wait a moment", 429)
        try:
            return await run_in_threadpool(_one_at_a_time, gate, work)
        except RequestError as error:
            return _error(str(error), error.status)
        except MemoryError:
            return _error("not enough memory for a maze this large; choose a smaller size", 413)
        except (BadFileError, BlockmazeError) as error:
            return _error(" ".join(str(error).split()), 400)

    async def api(request: Request):
        command = request.path_params["command"]
        mask = None
        if request.method == "POST":
            mask = await request.body()
            if len(mask) > settings.mask_bytes:
                return _error(f"a mask is at most {settings.mask_bytes} bytes", 413)
        query = dict(request.query_params)
        disposition = "inline" if query.pop("inline", None) else "attachment"
        try:
            job = Job.from_query(command, query, mask or None)
        except RequestError as error:
            return _error(str(error), error.status)

        def work():
            result = job.run(settings.limits)
            return Response(result.data, media_type=result.media_type, headers={
                "Content-Disposition": f'{disposition}; filename="{result.filename}"',
                "Cache-Control": "no-store"})

        return await guarded(request, work)

    async def carve(request: Request):
        from .carving import carve_record

        query = dict(request.query_params)
        mask = await request.body() if request.method == "POST" else b""
        if len(mask) > settings.mask_bytes:
            return _error(f"a mask is at most {settings.mask_bytes} bytes", 413)
        return await guarded(request, lambda: JSONResponse(
            carve_record(query, settings.limits, mask or None)))

    async def options(request: Request):
        from .jobs import describe

        return JSONResponse(describe())

    async def page(request: Request):
        return FileResponse(STATIC / "index.html")

    return Starlette(routes=[
        Route("/", page),
        Route("/api/options", options),
        Route("/api/carve", carve, methods=["GET", "POST"]),
        Route("/api/{command}", api, methods=["GET", "POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])


def _one_at_a_time(gate: threading.BoundedSemaphore, work):
    with gate:  # at most ``workers`` jobs build at once; the others wait their turn
        return work()


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)
