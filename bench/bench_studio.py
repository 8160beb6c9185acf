"""blockmaze studio speed: a 50x50 maze's round trip, request to picture (target < 0.3 s once the
server is warm), and a 300x300 maze's GLB preview fetched, parsed by three.js and rendered in
headless Chromium (target < 2 s).

The round trip is timed twice: from Python (HTTP request to PNG bytes, the server's side) and in
the page (the picture's request to its image decoded and shown). The preview is timed in the page
(``studio.glbMs``: request, GLB parse, first frame). Best of ``--repeat`` runs after a warm-up.
Needs the web extra, Selenium and Debian's chromium + chromium-driver.

``--hostile``: a ``blockmaze serve`` process (its file handles limited to 1024) under 1,000
half-open connections and 300 uploads trickled a byte every half second, each reopened as soon
as the server closes it, for ``--seconds``; the slowest of the page's answers meanwhile (target
< 2 s) and whether its log has a traceback; then the time to exit after SIGTERM with four jobs
running (target <= 2 s) and the processes and folders it leaves (target 0). Loopback only.

    python bench/bench_studio.py [--repeat 5] [--quick] [--hostile [--seconds 30]]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

ROUND_TRIP, PREVIEW = 0.3, 2.0
PAGE_UNDER_ATTACK, EXIT = 2.0, 2.0


def best_http(url: str, repeat: int) -> float:
    import httpx

    times = []
    with httpx.Client(timeout=60) as client:
        for seed in range(repeat + 1):
            started = time.perf_counter()
            answer = client.get(f"{url}/api/generate?size=50x50&seed={seed}&format=png")
            answer.raise_for_status()
            times.append(time.perf_counter() - started)
    return min(times[1:])  # the first warms the server up


def best_in_page(driver, url: str, size: int, repeat: int, measure: str) -> float:
    """Load the page for a size x size maze (seeds 0, 1, ...) and return the best ``measure``."""
    times = []
    for seed in range(repeat + 1):
        driver.get(f"{url}/?size={size}x{size}&seed={seed}")
        times.append(driver.execute_script(
            "return new Promise(done => { const t = setInterval(() => { if (window.studio && "
            f"studio.{measure} !== null && studio.renders > 0 && studio.pictures > 0) "
            f"{{ clearInterval(t); done(studio.{measure}); }} }}, 20); }})") / 1000)
    return min(times[1:])


def under_attack(seconds: float) -> tuple[float, int, bool]:
    """The slowest answer of the page (one request a second) while slow clients hold a server,
    how many connections they opened, and whether the server's log has a traceback."""
    import resource

    import httpx
    from studio_server import raise_open_files, serve_process, slow_clients

    if not raise_open_files(4096):
        raise SystemExit("the hostile bench opens 1,300 connections: it needs 4096 file handles")

    def limited():
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

    with tempfile.TemporaryDirectory() as folder:
        server, url = serve_process(Path(folder), preexec_fn=limited)
        try:
            slowest = 0.0
            with slow_clients(url, half_open=1000, trickling=300, seconds=seconds + 30) as counts:
                end = time.monotonic() + seconds
                while time.monotonic() < end:
                    started = time.monotonic()
                    httpx.get(f"{url}/", timeout=30).raise_for_status()
                    slowest = max(slowest, time.monotonic() - started)
                    time.sleep(1)
            server.terminate()
            _, err = server.communicate(timeout=30)
        finally:
            server.kill()
    return slowest, counts["opened"], "Traceback" in err


def stopping() -> tuple[float, int, int]:
    """Seconds from SIGTERM to the server's exit with four jobs running, and the processes
    (running, not zombies) and folders it leaves."""
    from studio_server import running_in_session, serve_process, start_heavy_jobs, wait_for_processes

    with tempfile.TemporaryDirectory() as folder:
        server, url = serve_process(Path(folder))
        pool = start_heavy_jobs(url, 4)
        try:
            wait_for_processes(server.pid, 1 + 2 + 4)
            started = time.monotonic()
            server.terminate()
            server.communicate(timeout=60)
            took = time.monotonic() - started
            time.sleep(1)
            left = len(running_in_session(server.pid))
            folders = len(list(Path(folder).iterdir()))
        finally:
            server.kill()
            pool.shutdown(wait=False, cancel_futures=True)
    return took, left, folders


def hostile(seconds: float) -> None:
    slowest, opened, traceback = under_attack(seconds)
    took, left, folders = stopping()
    print("| case | measured | target |")
    print("|---|---|---|")
    print(f"| `/` during 1,000 half-open connections and 300 trickled uploads ({opened} opened in "
          f"{seconds:g} s), slowest answer | {slowest:.2f} s | < {PAGE_UNDER_ATTACK} s: "
          f"{'met' if slowest < PAGE_UNDER_ATTACK else 'MISSED'} |")
    print(f"| tracebacks in the server's log | {'some' if traceback else 'none'} | none |")
    print(f"| exit after SIGTERM, four jobs running | {took:.2f} s | <= {EXIT} s: "
          f"{'met' if took <= EXIT else 'MISSED'} |")
    print(f"| processes and folders left | {left} and {folders} | 0 and 0 |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="two runs each")
    parser.add_argument("--hostile", action="store_true",
                        help="slow clients and a stop with jobs running, instead")
    parser.add_argument("--seconds", type=float, default=30, help="(--hostile) how long")
    args = parser.parse_args()
    if args.hostile:
        return hostile(args.seconds)
    repeat = 2 if args.quick else args.repeat

    from studio_server import running_studio
    from test_studio_browser import chromium

    with running_studio() as url:
        rows = [("50x50 round trip, HTTP request -> PNG bytes", best_http(url, repeat), ROUND_TRIP)]
        driver = chromium(tempfile.mkdtemp(prefix="blockmaze-bench-"))
        driver.set_script_timeout(120)
        try:
            rows.append(("50x50 round trip in the page, request -> picture shown",
                         best_in_page(driver, url, 50, repeat, "pictureMs"), ROUND_TRIP))
            rows.append(("300x300 GLB preview: request, three.js parse, first frame",
                         best_in_page(driver, url, 300, repeat, "glbMs"), PREVIEW))
        finally:
            driver.quit()
    print(f"| case (best of {repeat}, after a warm-up) | seconds | target |")
    print("|---|---|---|")
    for name, seconds, target in rows:
        print(f"| {name} | {seconds:.3f} | < {target} s: {'met' if seconds < target else 'MISSED'} |")


if __name__ == "__main__":
    main()
