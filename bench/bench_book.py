"""Paper: a puzzle book's time and size, the print look's contrast, and the drawn solution's
wall-crossing pixels over every grid kind; prints Markdown tables beside issue 55's targets.

    python bench/bench_book.py            # a 100-page book of 30x30 mazes with answers, 3 runs
    python bench/bench_book.py --quick    # CI smoke run: a 10-page book, one run, fewer mazes

The book is the whole command in a fresh process: ``blockmaze book generate 30x30 --rise none
-s 1 --pages 100 --page 8.5x11in -o book.pdf`` (100 mazes, their answers four to a page at the
back: 125 pages). The crossings are counted as tests/test_pdf.py counts them: pixels that are
wall in a maze's picture and not wall once its solution is drawn, over seeds and cell sizes;
a unicursal maze of the kinds split in blocks is drawn in lanes on its own grid, its one path the
solution (tests/test_unicursal_picture.py), and the time of that picture is beside the square
maze's it was before.
Benches print; they never fail on a number.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

COMMAND = [sys.executable, "-m", "blockmaze"]
KINDS = {"square": (15, 15), "hex": (12, 12), "triangle": (12, 16), "upsilon": (12, 12),
         "polar": (8,), "weave": (15, 15), "layered": (2, 8, 8)}
LANES = ("hex", "triangle", "upsilon", "polar")  # unicursal: drawn in lanes on their own grid


def book(folder: Path, pages: int) -> tuple[float, int, int]:
    out = folder / "book.pdf"
    started = time.perf_counter()
    subprocess.run([*COMMAND, "book", "generate", "30x30", "--rise", "none", "-s", "1", "--pages",
                    str(pages), "--page", "8.5x11in", "-o", str(out)], check=True,
                   capture_output=True, stdin=subprocess.DEVNULL)
    seconds = time.perf_counter() - started
    import pypdf

    return seconds, out.stat().st_size, len(pypdf.PdfReader(str(out)).pages)


def crossings(seeds: int, cells: tuple[int, ...]) -> dict[str, tuple[int, int]]:
    from blockmaze.export.picture_scene import WALL
    from blockmaze.export.pictures import render_image
    from blockmaze.pipeline import make_maze

    found = {}
    for kind, unicursal in [*((k, False) for k in KINDS), *((k, True) for k in LANES)]:
        total = pictures = 0
        for seed in range(seeds):
            made = make_maze(KINDS[kind], kind, seed=seed, unicursal=unicursal)
            for cell in cells:
                options = dict(endpoints=made.endpoints, cell_size=cell,
                               split_from=made.split_from)
                plain = np.asarray(render_image(made.maze, **options))
                solved = np.asarray(render_image(made.maze, solution=True, **options))
                total += int(((plain == WALL) & (solved != WALL)).sum())
                pictures += 1
        found[f"{kind} unicursal (lanes)" if unicursal else kind] = (total, pictures)
    return found


def lanes_time(size: tuple[int, int], runs: int) -> tuple[float, float]:
    """The best of ``runs`` times of a unicursal hex maze's PNG with its solution: in lanes on
    the hex grid, and as the square maze it was split into (the picture before)."""
    import io

    from blockmaze.export.pictures import render_png
    from blockmaze.pipeline import make_maze

    made = make_maze(size, "hex", seed=1, unicursal=True, entrances=True)
    best = []
    for split in (made.split_from, None):
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            render_png(made.maze, io.BytesIO(), endpoints=made.endpoints, solution=True,
                       split_from=split)
            times.append(time.perf_counter() - started)
        best.append(min(times))
    return best[0], best[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a 10-page book, one run")
    parser.add_argument("--pages", type=int, default=100, help="the book's mazes")
    parser.add_argument("--runs", type=int, default=3, help="runs of the book command")
    options = parser.parse_args()
    pages, count = (10, 1) if options.quick else (options.pages, options.runs)
    with tempfile.TemporaryDirectory(prefix="bench-book-") as folder:
        runs = [book(Path(folder), pages) for _ in range(count)]
    times = [t for t, _, _ in runs]
    print(f"| a {pages}-page book of 30x30 mazes with answers | median | runs | target |")
    print("|---|---|---|---|")
    print(f"| time (s, the whole command) | {statistics.median(times):.2f} | "
          f"{', '.join(f'{t:.2f}' for t in times)} | (noted) |")
    print(f"| file size (KiB) | {runs[0][1] / 1024:.0f} | | (noted) |")
    print(f"| PDF pages (mazes + answer pages) | {runs[0][2]} | | |\n")
    from blockmaze.export.picture_scene import BACKGROUND, PRINT, WALL, contrast

    print("| print look | WCAG contrast, walls to background | target |")
    print("|---|---|---|")
    print(f"| {PRINT[WALL]} on {PRINT[BACKGROUND]} | {contrast(PRINT[WALL], PRINT[BACKGROUND]):.1f}:1 "
          f"| >= 7:1 |")
    print(f"| classic ({'#7a7a7a'} on {'#a8a8a0'}) | {contrast('#7a7a7a', '#a8a8a0'):.2f}:1 | |\n")
    seeds, cells = (2, (8, 16)) if options.quick else (10, (6, 8, 12, 16, 24))
    print(f"| grid kind | wall pixels crossed by the solution | pictures (seeds x cell sizes "
          f"{', '.join(map(str, cells))}) | target |")
    print("|---|---|---|---|")
    for kind, (total, pictures) in crossings(seeds, cells).items():
        print(f"| {kind} | {total} | {pictures} | 0 |")
    size = (20, 20) if options.quick else (100, 100)
    lanes, square = lanes_time(size, 1 if options.quick else 3)
    print(f"\n| a unicursal hex {size[0]}x{size[1]} maze's PNG with its solution | best (s) |")
    print("|---|---|")
    print(f"| in lanes on the hex grid | {lanes:.2f} |")
    print(f"| as the square maze it was split into (before) | {square:.2f} |")


if __name__ == "__main__":
    main()
