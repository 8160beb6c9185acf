"""A real studio server (uvicorn) on a free local port, in a thread, for tests and benches."""

from __future__ import annotations

import contextlib
import os
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


def address(url: str) -> tuple[str, int]:
    """The host and port of a studio's base URL."""
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def raise_open_files(wanted: int) -> bool:
    """Let this process open ``wanted`` files (its soft limit raised, up to the hard one); False
    when the hard limit is lower."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < wanted:
        return False
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return True


@contextlib.contextmanager
def slow_clients(url: str, half_open: int, trickling: int, seconds: float = 60):
    """Hold ``half_open`` connections that never send a byte and ``trickling`` uploads that send
    their body a byte every half second, to the studio at ``url`` (loopback only), until the
    block ends or ``seconds`` pass. Each connection the server closes is opened again, so the
    pressure holds. They are held by a process of their own, as an attacker's are (in this one
    they would take the interpreter from the page's own client). Yields a dict counting the
    connections ``opened`` and ``closed`` by the server, filled when the block ends."""
    import json
    import subprocess
    import sys

    host, port = address(url)
    assert host in ("127.0.0.1", "localhost", "::1"), "slow clients are for loopback only"
    holder = subprocess.Popen(
        [sys.executable, __file__, host, str(port), str(half_open), str(trickling), str(seconds)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    counts = {"opened": 0, "closed": 0}
    try:
        assert holder.stdout is not None and holder.stdin is not None
        holder.stdout.readline()  # every connection tried once
        yield counts
        holder.stdin.close()  # the block ends: so do they
        counts.update(json.loads(holder.stdout.readline() or "{}"))
        holder.wait(30)
    finally:
        holder.kill()
        holder.wait()


def _hold_slow_clients(host: str, port: int, half_open: int, trickling: int,
                       seconds: float) -> dict:
    """slow_clients' connections, held until standard input closes or ``seconds`` pass."""
    import selectors
    import sys

    head = (f"POST /api/generate?size=3x3&format=maze HTTP/1.1\r\nHost: {host}:{port}\r\n"
            "Content-Length: 100000\r\n\r\n").encode()
    counts = {"opened": 0, "closed": 0}
    end = time.monotonic() + seconds

    def opened(first: bytes) -> socket.socket | None:
        try:
            connection = socket.create_connection((host, port), timeout=2)
            connection.setblocking(False)
            if first:
                connection.send(first)
        except OSError:
            return None
        counts["opened"] += 1
        return connection

    uploads = [opened(head) for _ in range(trickling)]
    idle = [opened(b"") for _ in range(half_open)]
    print("ready", flush=True)
    ended = selectors.DefaultSelector()
    ended.register(sys.stdin, selectors.EVENT_READ)
    while time.monotonic() < end:
        for group, first, byte in ((uploads, head, b"x"), (idle, b"", b"")):
            for i, connection in enumerate(group):
                try:
                    if connection is None:
                        raise OSError
                    if connection.recv(4096) == b"":
                        raise OSError  # closed by the server
                except BlockingIOError:
                    pass
                except OSError:
                    if connection is not None:
                        counts["closed"] += 1
                        connection.close()
                    group[i] = connection = opened(first)
                    continue
                if byte:
                    with contextlib.suppress(OSError):
                        connection.send(byte)
        if ended.select(0.5):
            break
    for connection in uploads + idle:
        if connection is not None:
            connection.close()
    return counts


def free_port() -> int:
    """A port free on loopback a moment ago."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_up(url: str, seconds: float = 60) -> None:
    """Until the studio at ``url`` answers (at most ``seconds``)."""
    import httpx

    deadline = time.monotonic() + seconds
    while True:
        try:
            httpx.get(f"{url}/api/options", timeout=5)
            return
        except httpx.HTTPError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def serve_process(tmp_path, **popen):
    """A ``blockmaze serve`` process in a session of its own (as a terminal's job), its
    temporary folders in ``tmp_path``; returns it and its base URL once it answers."""
    import subprocess
    import sys

    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "blockmaze", "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              start_new_session=True, env=dict(os.environ, TMPDIR=str(tmp_path)),
                              **popen)
    url = f"http://127.0.0.1:{port}"
    wait_until_up(url)
    return server, url


def running_in_session(sid: int) -> list[str]:
    """The processes of session ``sid`` still running (not zombies: a container's first
    process may not reap the orphans it is given)."""
    import subprocess

    listing = subprocess.run(["ps", "-e", "-o", "sid=,stat=,pid=,args="], capture_output=True,
                             text=True, check=True).stdout
    return [line for line in listing.splitlines()
            if line.split()[0] == str(sid) and not line.split()[1].startswith("Z")]


def start_heavy_jobs(url: str, count: int):
    """``count`` heavy jobs started (each in a thread of its own), once they all run."""
    import httpx

    def ask(seed):
        with contextlib.suppress(httpx.HTTPError):
            httpx.get(f"{url}/api/generate?size=300x300&seed={seed}&format=glb", timeout=60)

    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(count)
    for seed in range(count):
        pool.submit(ask, seed)
    return pool


def wait_for_processes(sid: int, count: int) -> None:
    """Until session ``sid`` runs ``count`` processes (its jobs have started)."""
    deadline = time.monotonic() + 60
    while len(running_in_session(sid)) < count:
        assert time.monotonic() < deadline, running_in_session(sid)
        time.sleep(0.1)


if __name__ == "__main__":  # slow_clients' holder: HOST PORT HALF_OPEN TRICKLING SECONDS
    import json
    import sys

    from_args = sys.argv[1:]
    print(json.dumps(_hold_slow_clients(from_args[0], int(from_args[1]), int(from_args[2]),
                                        int(from_args[3]), float(from_args[4]))), flush=True)
