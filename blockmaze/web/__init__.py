"""blockmaze studio: a local web page to design a maze, watch it carve, see it in 3-D and
download it (``blockmaze serve``; the optional extra ``pip install 'blockmaze[web]'``).

Every download is the file the command line writes for the same options (:mod:`.jobs`).

Example
-------
>>> from blockmaze.web import require_web
>>> require_web()   # Starlette and uvicorn are installed
"""

from __future__ import annotations

import errno
import socket
import sys

from ..errors import BlockmazeError, OutputError
from ..support import stops

MISSING = ("the studio needs the web extra: pip install 'blockmaze[web]' "
           "(from a checkout: pip install '.[web]')")


def require_web() -> None:
    """Raise BlockmazeError naming the extra when Starlette or uvicorn is missing."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise BlockmazeError(MISSING) from None


def serve(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False, *,
          settings=None, announce=print) -> bool:
    """Run the studio on ``host:port`` until stopped; say its URL first (and open it). Returns
    whether a stop signal (Ctrl-C, SIGTERM, SIGHUP) ended it: the server shuts down cleanly,
    its jobs stopped and their folders removed (:func:`blockmaze.support.stops.serving`)."""
    require_web()
    from .app import Settings

    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    listening = bind(host, port)  # before the banner: a busy port is one line, not a traceback
    announce(f"blockmaze studio at {url} (Ctrl-C stops it)")
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    server = make_server(settings or Settings(), host, port)
    with stops.serving(server.handle_exit) as stopped:
        server.run(sockets=[listening])
    return bool(stopped)


def make_server(settings, host: str, port: int):
    """The uvicorn server of the studio with ``settings`` (:class:`.app.Settings`) on
    ``host:port``: its connections bounded in number and in the time to send a request
    (:mod:`.connections`); told to stop (once or more), it ends its jobs at once and waits at
    most a second for the answers under way, then ends cleanly (uvicorn's forced exit on a
    second Ctrl-C would cut the application's shutdown short, with a traceback)."""
    import uvicorn

    from .app import create_app
    from .connections import timed_protocol

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            app.state.workers.close()  # the jobs end now: their requests answer at once
            if not self.should_exit:  # a second Ctrl-C: already stopping, within a second
                super().handle_exit(sig, frame)

        async def startup(self, sockets=None) -> None:
            import asyncio

            asyncio.get_running_loop().set_exception_handler(_quiet_when_out_of_files)
            await super().startup(sockets)

    app = create_app(settings)
    # never out of file handles: the connections kept, those taken in at one go (the backlog)
    # and as many closed for room but not yet let go fit in half the process's handles
    files = _open_files()
    most = min(settings.connections, files // 4)
    return Server(uvicorn.Config(
        app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=1,
        backlog=max(16, min(128, files // 8)),
        # (a body's time is the application's to answer, 408: the connection's a second later)
        http=timed_protocol(settings.head_seconds, settings.body_seconds + 1, most,
                            min(settings.per_client, most))))


def _quiet_when_out_of_files(loop, context) -> None:
    """The event loop's error handler: running out of file handles while taking a connection in
    (the loop tries again a moment later) is one line, not a traceback a connection; anything
    else goes to the loop's own handler."""
    error = context.get("exception")
    if isinstance(error, OSError) and error.errno in (errno.EMFILE, errno.ENFILE):
        now = loop.time()
        if now - _said_out_of_files[0] > 60:  # (once a minute at most)
            _said_out_of_files[0] = now
            print("blockmaze studio: out of file handles for new connections; waiting",
                  file=sys.stderr)
        return
    loop.default_exception_handler(context)


_said_out_of_files = [-1e9]


def _open_files() -> int:
    """How many files this process may open: its soft limit, raised to the hard one first."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not a POSIX system
        return 8192
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return 1 << 20 if soft == resource.RLIM_INFINITY else soft


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; OutputError naming ``--port`` when it is taken.

    >>> taken = bind("127.0.0.1", 0)
    >>> bind("127.0.0.1", taken.getsockname()[1])
    Traceback (most recent call last):
    ...
    blockmaze.errors.OutputError: port ... is in use: choose another with --port
    >>> taken.close()
    """
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as error:
        raise OutputError(f"cannot serve on host {host!r}: {error}") from None
    listening = socket.socket(family, kind, proto)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind(address)
        listening.listen(2048)
    except OSError as error:
        listening.close()
        if error.errno in (errno.EADDRINUSE, errno.EACCES):
            raise OutputError(f"port {port} is in use: choose another with --port") from None
        raise OutputError(f"cannot serve on {host}:{port}: {error.strerror}") from None
    listening.set_inheritable(True)
    return listening
