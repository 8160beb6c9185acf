"""Weave generation beside the same algorithm on the plain square grid of the same size.

    python bench/bench_weave.py            # 1000x1000 (about a minute)
    python bench/bench_weave.py --side 300

"weave" times the whole job a weave maze adds to a square one: drawing the crossings (``--weave
P``, P = 0.5 and 1) and building the weave grid's neighbour table, then carving it. The target:
within 2x of the square grid's time for the same algorithm. kruskal:weave lays the crossings
first (the book's way to weave many); its row compares with plain Kruskal on the square grid.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import blockmaze as bm
from blockmaze.algorithms import ALGORITHMS
from blockmaze.grids.weave import place_crossings

RUNS = 3


def best(job) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", type=int, default=1000)
    side = parser.parse_args().side
    square = bm.square_grid(side, side)
    specs = [name for name, a in ALGORITHMS.items() if a.grid_kinds is None] + ["kruskal:weave"]
    print(f"{side}x{side} cells, best of {RUNS} (seconds)")
    print(f"{'algorithm':<16}{'square':>9}{'weave 0.5':>11}{'ratio':>7}{'weave 1':>9}{'ratio':>7}"
          f"{'crossings used':>16}")
    for spec in specs:
        plain = spec.partition(":")[0]
        bm.generate(bm.square_grid(4, 4), algorithm=plain, rng=0)  # compile / load the cache
        place_crossings(bm.square_grid(4, 4), 1.0, np.random.default_rng(0))
        base = best(lambda: bm.generate(square, algorithm=plain, rng=1))
        row = f"{spec:<16}{base:>9.3f}"
        for chance in (0.5, 1.0):
            woven = {}

            def job():
                grid = place_crossings(square, chance, np.random.default_rng(1))
                woven["maze"] = bm.generate(grid, algorithm=spec, rng=1)

            seconds = best(job)
            row += f"{seconds:>11.3f}{seconds / base:>7.2f}" if chance == 0.5 else \
                f"{seconds:>9.3f}{seconds / base:>7.2f}"
        maze = woven["maze"]
        row += f"{len(maze.grid.used_crossings(maze.links)):>16}"
        print(row, flush=True)


if __name__ == "__main__":
    main()
