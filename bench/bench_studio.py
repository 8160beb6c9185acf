"""blockmaze studio speed: a 50x50 maze's round trip, request to picture (target < 0.3 s once the
server is warm), and a 300x300 maze's GLB preview fetched, parsed by three.js and rendered in
headless Chromium (target < 2 s).

The round trip is timed twice: from Python (HTTP request to PNG bytes, the server's side) and in
the page (the picture's request to its image decoded and shown). The preview is timed in the page
(``studio.glbMs``: request, GLB parse, first frame). Best of ``--repeat`` runs after a warm-up.
Needs the web extra, Selenium and Debian's chromium + chromium-driver.

    python bench/bench_studio.py [--repeat 5] [--quick]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

ROUND_TRIP, PREVIEW = 0.3, 2.0


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="two runs each")
    args = parser.parse_args()
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
