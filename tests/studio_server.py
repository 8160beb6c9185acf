"""A real studio server (uvicorn) on a free local port, in a thread, for tests and benches."""

from __future__ import annotations

import contextlib
import socket
import threading
import time


@contextlib.contextmanager
def running_studio(settings=None):
    """Yield the base URL of a studio served by uvicorn until the block ends."""
    from blockmaze.web import make_server
    from blockmaze.web.app import Settings

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = make_server(settings or Settings(), "127.0.0.1", port)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the studio server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
