"""Our generators beside their peers, each timed the same way; prints a markdown table.

    python bench/bench_peers.py            # the figures of docs/peers.md (several minutes)
    python bench/bench_peers.py --quick    # smaller and fewer runs, under a minute (CI's smoke run)

The peers, and how each is timed (always warm, always inside the program, median of several runs):

- **C**: ``bench/reference/backtracker.c``, a plain iterative depth-first search built here with
  the system compiler (``cc -O2``), timed inside the program by its thread's CPU clock
  (``clock_gettime``) at 1000x1000:
  carve only (a byte per cell for visits and one for the direction to the parent) and with the
  2n+1 block plan written as it goes. Ours in this process by the same clock
  (``time.thread_time``; on a shared machine the wall clock counts other programs' turns), compiled:
  the carve over a ready grid; the grid included (``generate``: the grid built, carved, a Maze);
  and with the plan too (``to_blocks``). Rounds alternate C and ours; each side's figure is the
  median of its round medians.
- **mazelib** (pure Python, ``pip install mazelib``): every generator it shares with us, in a
  child process as bench_algorithms.py runs it (its grid built inside the timer, as ours).
- **rot.js** (``rot-js`` on npm, run by ``node``; ``bench/reference/rot_maps.js``): its Uniform,
  Digger and Cellular maps beside the dungeon style nearest each, at 201x301 and 2001x3001
  tiles, timed inside node with ``process.hrtime``; ours with ``generate_dungeon`` (no metrics).
- **python-tcod**: its BSP split into rooms joined along the tree, as its documentation does,
  beside our bsp style, in this process.
- **mazelib as a process**: ``blockmaze generate 10x10`` against a script that imports mazelib
  and prints a 10x10 maze, whole processes in alternation, medians of wall and of CPU time
  (bytecode cached, as after an install).

A ratio is our time over the peer's: at most 1.0 means ours is as fast or faster. The last line
says which targets were met (MISSED otherwise); the run never fails on a target. A peer that is
missing prints "not installed" in its row, except under ``CI=true``, where the run fails.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import blockmaze as bm
from blockmaze.algorithms import ALGORITHMS
from blockmaze.blocks.convert import to_blocks
from blockmaze.dungeon import generate_dungeon
from blockmaze.grids import square_grid
from blockmaze.support.kernels import forced

from bench_algorithms import MAZELIB, has_mazelib, theirs
from bench_startup import MAZELIB as MAZELIB_SCRIPT

HERE = Path(__file__).resolve().parent
READERS = Path(os.environ.get("BLOCKMAZE_READERS") or HERE.parent / ".readers")
C_TARGET = 0.9  # of C's speed: our time at most C's / 0.9
# our dungeon style -> the nearest rot.js map (tcod's BSP stands beside bsp)
ROT_MAPS = {"rooms-and-mazes": ("uniform",), "digger": ("digger",), "caves": ("cellular",),
            "mixed": ("cellular", "digger")}


def missing(peer: str, how: str) -> str:
    """The row's text for a peer that is not here; under CI=true, stop the run instead."""
    if os.environ.get("CI") == "true":
        sys.exit(f"bench_peers: CI=true and {peer} is not installed ({how})")
    return "not installed"


def median_ms(job, runs: int, clock=time.perf_counter) -> float:
    """Median milliseconds of ``runs`` calls of ``job`` (after one call not counted) by ``clock``."""
    job()
    times = []
    for _ in range(runs):
        start = clock()
        job()
        times.append(clock() - start)
    return statistics.median(times) * 1e3


class Table:
    """The rows printed, each with its target and whether it was met."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, ...]] = []
        self.missed: list[str] = []

    def add(self, what: str, size: str, peer: str, theirs_ms: float | str, ours_ms: float,
            limit: float | None = 1.0) -> None:
        """A row: ``theirs_ms`` a figure or a word ("not installed", "timeout ..."); ``limit``
        the largest ratio (ours over theirs) that meets the target, None for no target."""
        if isinstance(theirs_ms, str):  # a word; "timeout N s": ours over N s is a bound
            bound = ours_ms / (float(theirs_ms.split()[1]) * 1e3) if theirs_ms.startswith("timeout") else None
            ratio = "-" if bound is None else f"< {bound:.3f}"
            met = "-" if bound is None or limit is None else "met" if bound <= limit else "MISSED"
            peer_text = theirs_ms
        else:
            value = ours_ms / theirs_ms
            ratio = f"{value:.2f}"
            met = "-" if limit is None else "met" if value <= limit else "MISSED"
            peer_text = f"{theirs_ms:.1f} ms"
        if met == "MISSED":
            self.missed.append(f"{what} {size}")
        target = "-" if limit is None else f"<= {limit:.2f}"
        self.rows.append((what, size, peer, peer_text, f"{ours_ms:.1f} ms", ratio, target, met))

    def print(self) -> None:
        print("| ours | size | peer | peer's time | our time | ours / peer | target | |")
        print("|---|---|---|---|---|---|---|---|")
        for row in self.rows:
            print("| " + " | ".join(row) + " |")
        print(f"\nsummary: {'MISSED: ' + ', '.join(self.missed) if self.missed else 'every target met'}",
              flush=True)


def c_reference(table: Table, side: int, rounds: int, runs: int) -> None:
    """The backtracker beside bench/reference/backtracker.c, in alternating rounds."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    size = f"{side}x{side}"
    if compiler is None:
        table.add("backtracker", size, "C (cc -O2)", missing("a C compiler", "apt-get install gcc"), 0.0)
        return
    with tempfile.TemporaryDirectory() as folder:
        program = os.path.join(folder, "backtracker")
        subprocess.run([compiler, "-O2", "-o", program, str(HERE / "reference" / "backtracker.c")], check=True)
        grid = square_grid(side, side)
        carve = ALGORITHMS["backtracker"].carve
        seeds = iter(range(10**6))
        jobs = {"carve": lambda: carve(grid, np.random.default_rng(next(seeds))),
                "grid": lambda: bm.generate((side, side), rng=next(seeds)),
                "plan": lambda: to_blocks(bm.generate((side, side), rng=next(seeds)))}
        c_times: dict[str, list[float]] = {"carve": [], "plan": []}
        ours: dict[str, list[float]] = {name: [] for name in jobs}
        with forced("numba"):
            for r in range(rounds):
                out = subprocess.run([program, str(side), str(runs), str(r + 1)], check=True,
                                     capture_output=True, text=True).stdout
                for line in out.splitlines():
                    name, ms = line.split()
                    c_times[name].append(float(ms))
                for name, job in jobs.items():
                    ours[name].append(median_ms(job, runs, time.thread_time))
    c = {name: statistics.median(v) for name, v in c_times.items()}
    o = {name: statistics.median(v) for name, v in ours.items()}
    peer = f"C, cc -O2 ({rounds} rounds of {runs}, CPU)"
    table.add("backtracker, carve only", size, peer + ": carve", c["carve"], o["carve"], 1 / C_TARGET)
    table.add("backtracker, grid included", size, peer + ": carve", c["carve"], o["grid"], 1 / C_TARGET)
    table.add("backtracker, grid and 2n+1 plan", size, peer + ": plan written", c["plan"], o["plan"], None)


def mazelib_rows(table: Table, side: int, runs: int, limit: float) -> None:
    """Every generator mazelib shares with us, at ``side``x``side``."""
    size = f"{side}x{side}"
    if not has_mazelib():
        table.add("every algorithm", size, "mazelib", missing("mazelib", "pip install '.[test]'"), 0.0)
        return
    from importlib.metadata import version

    peer_version = version("mazelib")
    for spec, name in MAZELIB.items():
        seeds = iter(range(10**6))
        ours = median_ms(lambda: bm.generate((side, side), algorithm=spec, rng=next(seeds)), runs)
        best = theirs(name, side, runs, limit)
        figure = best * 1e3 if isinstance(best, float) else f"timeout {limit:.0f} s" if best == "timeout" else best
        table.add(spec, size, f"mazelib {peer_version} {name}", figure, ours)


def rot_ms(name: str, width: int, height: int, runs: int, limit: float) -> float | str:
    """rot.js's median ms for one map, or a word: "timeout N s", "not installed"."""
    node = shutil.which("node")
    modules = READERS / "npm" / "node_modules"
    if node is None or not (modules / "rot-js").is_dir():
        return missing("rot.js", "bash scripts/install_readers.sh")
    try:
        out = subprocess.run([node, str(HERE / "reference" / "rot_maps.js"), name, str(width), str(height),
                              str(runs), "1", str(int(limit * 1e3))], check=True, capture_output=True,
                             text=True, timeout=limit * (runs + 1) + 30,
                             env=dict(os.environ, NODE_PATH=str(modules))).stdout.split()
    except subprocess.TimeoutExpired:
        return f"timeout {limit:.0f} s"
    return f"timeout {limit:.0f} s" if out[0] == "timeout" else float(out[0])


def rot_version() -> str:
    package = READERS / "npm" / "node_modules" / "rot-js" / "package.json"
    if not package.is_file():
        return ""
    import json

    return " " + json.loads(package.read_text())["version"]


def tcod_bsp(height: int, width: int, seed: int) -> np.ndarray:
    """A BSP dungeon as python-tcod's documentation builds one: ``BSP.split_recursive`` into
    leaves of at least 6 tiles, a room in each leaf, the two halves of every split joined by an
    L-shaped corridor between their centres."""
    import tcod.bsp
    import tcod.random

    plan = np.ones((height, width), dtype=np.uint8)
    tree = tcod.bsp.BSP(x=1, y=1, width=width - 2, height=height - 2)
    tree.split_recursive(depth=64, min_width=6, min_height=6, max_horizontal_ratio=1.5,
                         max_vertical_ratio=1.5, seed=tcod.random.Random(seed=seed))
    draw = random.Random(seed)
    for node in tree.pre_order():
        if node.children:
            a, b = node.children
            (ax, ay), (bx, by) = ((n.x + n.width // 2, n.y + n.height // 2) for n in (a, b))
            plan[ay, min(ax, bx):max(ax, bx) + 1] = 0
            plan[min(ay, by):max(ay, by) + 1, bx] = 0
        else:
            w = draw.randint(min(3, node.width - 1), min(9, node.width - 1))
            h = draw.randint(min(3, node.height - 1), min(9, node.height - 1))
            x = node.x + draw.randint(0, node.width - w - 1)
            y = node.y + draw.randint(0, node.height - h - 1)
            plan[y:y + h, x:x + w] = 0
    return plan


def dungeon_rows(table: Table, tiles: tuple[int, int], runs: int, limit: float) -> None:
    """Each dungeon style beside its nearest rot.js map, and bsp beside tcod's BSP."""
    height, width = tiles
    size = f"{height}x{width}"
    cells = (height // 2, width // 2)
    version = rot_version()
    peers: dict[str, float | str] = {}
    for style, maps in ROT_MAPS.items():
        seeds = iter(range(10**6))
        ours = median_ms(lambda: generate_dungeon(cells, next(seeds), style=style, metrics=False), runs)
        for name in maps:
            if name not in peers:
                peers[name] = rot_ms(name, width, height, runs, limit)
            table.add(style, size, f"rot.js{version} {name.title()} (node)", peers[name], ours)
    seeds = iter(range(10**6))
    ours = median_ms(lambda: generate_dungeon(cells, next(seeds), style="bsp", metrics=False), runs)
    try:
        import tcod

        peer = median_ms(lambda: tcod_bsp(height, width, next(seeds)), runs)
        table.add("bsp", size, f"python-tcod {tcod.__version__} BSP", peer, ours)
    except ImportError:
        table.add("bsp", size, "python-tcod BSP", missing("python-tcod", "pip install '.[test]'"), ours)


def startup_row(table: Table, pairs: int) -> None:
    """`blockmaze generate 10x10` against the mazelib script, whole processes, in pairs."""
    if not has_mazelib():
        table.add("generate 10x10 (process)", "10x10", "mazelib script",
                  missing("mazelib", "pip install '.[test]'"), 0.0)
        return
    exe = shutil.which("blockmaze", path=os.path.dirname(sys.executable))
    ours_argv = [exe] if exe else [sys.executable, "-m", "blockmaze"]
    commands = {"ours": ours_argv + ["generate", "10x10", "--seed", "1"],
                "theirs": [sys.executable, "-c", MAZELIB_SCRIPT]}
    walls: dict[str, list[float]] = {"ours": [], "theirs": []}
    cpus: dict[str, list[float]] = {"ours": [], "theirs": []}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # as installed
    for i in range(pairs + 1):
        for name, argv in (commands.items() if i % 2 else reversed(commands.items())):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           cwd=tempfile.gettempdir(), env=env)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if i:  # the first pair writes bytecode and warms the file cache
                walls[name].append(wall)
                cpus[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    peer = f"mazelib script (print a 10x10), {pairs} pairs"
    for what, times in (("wall", walls), ("CPU", cpus)):
        table.add(f"generate 10x10 (process, {what})", "10x10", peer,
                  statistics.median(times["theirs"]) * 1e3, statistics.median(times["ours"]) * 1e3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="mazelib at 100x100 only, dungeons at 201x301 only, fewer runs")
    quick = parser.parse_args().quick
    table = Table()
    c_reference(table, 1000, 3, 5 if quick else 9)
    for side in ([100] if quick else [100, 300]):
        mazelib_rows(table, side, 1 if quick else 3, 5.0 if quick else 60.0)
    for style in ("rooms-and-mazes", "caves", "bsp", "digger", "mixed"):  # compile
        generate_dungeon((10, 12), 0, style=style)
    for tiles in ([(201, 301)] if quick else [(201, 301), (2001, 3001)]):
        dungeon_rows(table, tiles, 1 if tiles[0] > 1000 else 3 if quick else 5, 120.0)
    startup_row(table, 5 if quick else 15)
    table.print()


if __name__ == "__main__":
    main()
