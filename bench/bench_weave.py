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

RUNS = 5


def best_of(jobs) -> list[float]:
    """Each job's best time over RUNS rounds, the jobs taking turns (so a busy moment of a shared
    machine falls on all of them alike)."""
    times = [[] for _ in jobs]
    for _ in range(RUNS):
        for job, spent in zip(jobs, times, strict=True):
            start = time.perf_counter()
            job()
            spent.append(time.perf_counter() - start)
    return [min(spent) for spent in times]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", type=int, default=1000)
    side = parser.parse_args().side
    square = bm.square_grid(side, side)
    specs = [name for name, a in ALGORITHMS.items() if a.grid_kinds is None] + ["kruskal:weave"]
    print(f"{side}x{side} cells, best of {RUNS} taking turns (seconds)")
    print(f"{'algorithm':<16}{'square':>9}{'weave 0.5':>11}{'ratio':>7}{'weave 1':>9}{'ratio':>7}"
          f"{'crossings used':>16}")
    for spec in specs:
        plain = spec.partition(":")[0]
        bm.generate(bm.square_grid(4, 4), algorithm=plain, rng=0)  # compile / load the cache
        place_crossings(bm.square_grid(40, 40), 1.0, np.random.default_rng(0))
        woven = {}

        def weave(chance):
            def job():
                grid = place_crossings(square, chance, np.random.default_rng(1))
                woven["maze"] = bm.generate(grid, algorithm=spec, rng=1)
            return job

        base, half, full = best_of([lambda: bm.generate(square, algorithm=plain, rng=1),
                                    weave(0.5), weave(1.0)])
        maze = woven["maze"]
        print(f"{spec:<16}{base:>9.3f}{half:>11.3f}{half / base:>7.2f}{full:>9.3f}"
              f"{full / base:>7.2f}{len(maze.grid.used_crossings(maze.links)):>16}", flush=True)


if __name__ == "__main__":
    main()
