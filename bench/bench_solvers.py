"""Solvers and --difficulty: speed beside mazelib, band hit rates, a hard maze's cost.

    python bench/bench_solvers.py            # 1000x1000 solvers, mazelib to 100x100, 30 mazes a
                                             # band, kind and size, 9 hard 100x100 mazes
    python bench/bench_solvers.py --per 1000 # the issue's calibration run (hours on 2 cores)
    python bench/bench_solvers.py --only bands --per 10   # one table
    python bench/bench_solvers.py --quick    # CI smoke run: 100x100, mazelib at 15x15, 3 a band

Prints three Markdown tables, beside the issue's targets (issue 54):

1. each solver's time on one square maze (Prim's, mazelib's generator's algorithm; start and
   goal the ends of its longest path), ours compiled (numba; the first call's compile or cache
   load is not timed), and mazelib 0.9.16's solver of the same name on the same maze through
   the 2n+1 array where it has one, at the sizes it finishes in minutes; its 1000x1000 time is
   projected from those by a power law fitted to them (marked as such);
2. for each grid kind and calibrated size, the share of mazes asked for each band (seeds
   0..per-1 of ``make_maze(..., difficulty=band)``) whose measured difficulty lands in it
   (goal >= 95 % in each band);
3. the time to make a ``hard`` 100x100 maze against a plain one (``make_maze`` with the
   defaults), the median over seeds (goal <= 3x).

Benches print; they never fail on a time.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from blockmaze.errors import BlockmazeError  # noqa: E402
from blockmaze.mazes import difficulty  # noqa: E402
from blockmaze.pipeline import make_maze  # noqa: E402
from blockmaze.solvers import METHODS, solve  # noqa: E402
from blockmaze.support.kernels import forced  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from calibrate_difficulty import SIZES, WEAVE  # noqa: E402

LIB = {"bfs": "ShortestPath", "tremaux": "Tremaux", "random-mouse": "RandomMouse"}
LIB_MOST = {"tremaux": 50, "random-mouse": 50}  # 100x100: minutes each (Trémaux ~3 min)


def timed(call) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def ours(side: int) -> dict[str, float]:
    document = make_maze((side, side), algorithm="prim", seed=1)
    maze, ends = document.maze, document.endpoints
    out: dict[str, float | str] = {}
    with forced("numba"):
        for method in METHODS:
            try:
                solve(maze, method, ends.start, ends.goal, rng=1)  # compiled or loaded, not timed
            except BlockmazeError as error:  # the random mouse's step limit
                out[method] = str(error)
                continue
            out[method] = timed(lambda: solve(maze, method, ends.start, ends.goal, rng=1))
    return out


def mazelib(side: int, name: str) -> float | None:
    try:
        import importlib

        from mazelib import Maze
        from mazelib.generate.Prims import Prims
    except ImportError:
        return None
    solver = getattr(importlib.import_module(f"mazelib.solve.{name}"), name)
    maze = Maze(1)
    maze.generator = Prims(side, side)
    maze.generate()
    maze.start, maze.end = (0, 1), (2 * side, 2 * side - 1)
    maze.solver = solver()
    return timed(maze.solve)


def solver_table(sides: list[int], lib_sides: list[int], big: int) -> None:
    print("## Solvers on a square Prim maze (ours compiled; mazelib 0.9.16)\n")
    print("| solver | " + " | ".join(f"ours {s}x{s}" for s in sides) + " | "
          + " | ".join(f"mazelib {s}x{s}" for s in lib_sides) + f" | mazelib {big}x{big} |")
    print("|---" * (2 + len(sides) + len(lib_sides)) + "|")
    mine = {side: ours(side) for side in sides}
    for method in METHODS:
        row = [f"{t * 1000:.1f} ms" if isinstance(t, float) else t
               for t in (mine[s][method] for s in sides)]
        lib = LIB.get(method)
        most = LIB_MOST.get(method, max(lib_sides))  # its slow ones: the small sizes alone
        times = [mazelib(s, lib) if lib and s <= most else None for s in lib_sides]
        row += ["-" if t is None else f"{t:.2f} s" for t in times]
        got = [(s, t) for s, t in zip(lib_sides, times, strict=True) if t]
        if len(got) >= 2:
            (s0, t0), (s1, t1) = got[-2], got[-1]
            power = math.log(t1 / t0) / math.log(s1 / s0)
            row.append(f"~{t1 * (big / s1) ** power / 3600:.0f} h projected (x^{power:.1f})")
        else:
            row.append("no such solver" if not lib else "-")
        print(f"| {method} | " + " | ".join(row) + " |")
    print("\nmazelib has no wall follower since its commit 967bfc7 (issue #93), and no A* or "
          "dead-end filling.\n")


def band_table(per: int, kinds: list[str], sizes: int) -> None:
    print(f"## --difficulty: share landing in the band asked ({per} mazes a band; goal >= 95 %)\n")
    print("| kind | size | " + " | ".join(difficulty.BANDS) + " | tries (mean) |")
    print("|---|---|" + "---|" * (len(difficulty.BANDS) + 1))
    for kind in kinds:
        for shape in SIZES[kind][:sizes]:
            cells = []
            tries = []
            for name, band in difficulty.BANDS.items():
                hits = 0
                for seed in range(per):
                    document = make_maze(shape, kind=kind, seed=seed, difficulty=name,
                                         weave=WEAVE if kind == "weave" else 0.0)
                    tries.append(document.extra["difficulty"]["tries"])
                    low, high = band
                    hits += low <= document.extra["difficulty"]["score"] <= high
                cells.append(f"{100 * hits / per:.1f} %")
            print(f"| {kind} | {'x'.join(map(str, shape))} | " + " | ".join(cells)
                  + f" | {np.mean(tries):.2f} |", flush=True)
    print()


def hard_table(runs: int) -> None:
    print("## A hard 100x100 maze against a plain one (median of seeds 1..runs; goal <= 3x)\n")
    print("| kernels | plain | hard | ratio |\n|---|---|---|---|")
    for mode in ("python", "numba"):  # a fresh command's 100x100 runs them as Python
        with forced(mode):
            make_maze((100, 100), seed=0, difficulty="hard")  # kernels loaded, table read
            make_maze((100, 100), seed=0)
            plain = statistics.median(timed(lambda s=s: make_maze((100, 100), seed=s))
                                      for s in range(1, runs + 1))
            hard = statistics.median(
                timed(lambda s=s: make_maze((100, 100), seed=s, difficulty="hard"))
                for s in range(1, runs + 1))
        print(f"| {mode} | {plain * 1000:.0f} ms | {hard * 1000:.0f} ms | {hard / plain:.2f}x |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per", type=int, default=30, help="mazes a band, kind and size")
    parser.add_argument("--quick", action="store_true", help="CI smoke run")
    parser.add_argument("--kinds", nargs="*", default=list(SIZES))
    parser.add_argument("--only", choices=("solvers", "bands", "hard"), help="one table")
    args = parser.parse_args()
    if args.quick:
        solver_table([100], [15], 1000)
        band_table(3, ["square"], 1)
        hard_table(1)
        return
    if args.only in (None, "solvers"):
        solver_table([100, 1000], [25, 50, 100], 1000)
    if args.only in (None, "bands"):
        band_table(args.per, args.kinds, 3)
    if args.only in (None, "hard"):
        hard_table(9)


if __name__ == "__main__":
    main()
