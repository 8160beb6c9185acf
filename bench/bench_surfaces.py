"""Mazes on surfaces: every seam's neighbours checked over every surface kind and many sizes,
every general algorithm's spanning trees counted, and the time to make a maze of about a
million cells and to draw its net; prints Markdown tables beside issue 56's targets.

    python bench/bench_surfaces.py            # sizes up to 60 a side, a million-cell maze a kind
    python bench/bench_surfaces.py --quick    # CI smoke run: small sizes, 10,000-cell mazes

A neighbour is asymmetric when the way back (``opposite``) does not lead back, when a cell is
its own neighbour or when it reaches one cell twice. A spanning tree: every enabled cell
reached from the first, one passage fewer than cells (as tests/spanning.py counts them).
Benches print; they never fail on a number.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import blockmaze as bm  # noqa: E402
from blockmaze.algorithms import ALGORITHMS, algorithm_specs  # noqa: E402
from blockmaze.grids import GRID_KINDS, SURFACE_KINDS  # noqa: E402


def shapes(kind: str, most: int) -> list[tuple[int, ...]]:
    """The sizes tried: every side from the least to ``most`` (wrapping sides from 3)."""
    if kind == "cube":
        return [(n,) for n in range(1, most + 1)]
    if kind == "sphere":
        return [(r,) for r in range(2, 2 * most + 1, 2)]
    rows = range(3 if kind == "torus" else 1, most + 1, max(1, most // 12))
    return [(r, c) for r in rows for c in range(3, most + 1, max(1, most // 12))]


def asymmetric(grid) -> int:
    """The neighbour entries whose way back fails, that point at their own cell, or repeat."""
    cells, directions = np.nonzero(grid.neighbors >= 0)
    others = grid.neighbors[cells, directions]
    back = grid.neighbors[others, grid.opposite[directions]] != cells
    own = others == cells
    # each missing neighbour a number of its own, so only real neighbours can repeat
    table = np.sort(np.where(grid.neighbors >= 0, grid.neighbors, -1 - np.arange(grid.degree)),
                    axis=1)
    repeats = int((table[:, 1:] == table[:, :-1]).sum())
    return int(back.sum() + own.sum()) + repeats


def spanning(maze) -> bool:
    grid = maze.grid
    reached = maze.distances(int(np.argmax(grid.enabled))) >= 0
    return bool(reached[grid.enabled].all() and int(maze.links.sum()) // 2
                == grid.enabled_count - 1)


def million(kind: str, cells: int) -> tuple[int, ...]:
    side = int(round(cells ** 0.5))
    if kind == "cube":
        return (int(round((cells / 6) ** 0.5)),)
    if kind == "sphere":
        return (2 * int(round((cells / 0.88) ** 0.5 / 2)),)
    return (side, side)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, CI's smoke run")
    args = parser.parse_args()
    most, cells = (8, 10_000) if args.quick else (60, 1_000_000)
    general = [s for s in algorithm_specs() if ALGORITHMS[s.partition(":")[0]].grid_kinds is None
               and not s.endswith(":weave")]
    print("| surface | sizes tried | asymmetric neighbours | spanning trees | target |")
    print("|---|---|---|---|---|")
    for kind in SURFACE_KINDS:
        tried = shapes(kind, most)
        bad = sum(asymmetric(GRID_KINDS[kind](*shape)) for shape in tried)
        small = tried[:: max(1, len(tried) // 6)]
        trees = [spanning(bm.generate(GRID_KINDS[kind](*shape), algorithm=spec, rng=seed))
                 for shape in small for spec in general for seed in range(2)]
        print(f"| {kind} | {len(tried)} | {bad} | {sum(trees)} of {len(trees)} "
              f"| 0 asymmetric, all trees |")
    print()
    print("| surface | cells | make the maze (s) | draw its net as PNG (s) |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for kind in SURFACE_KINDS:
            grid = GRID_KINDS[kind](*million(kind, cells))
            bm.generate(GRID_KINDS[kind](*million(kind, 100)), rng=0)  # (compiled once)
            started = time.perf_counter()
            maze = bm.generate(grid, rng=1)
            made = time.perf_counter() - started
            started = time.perf_counter()
            bm.save(maze, str(Path(folder, f"{kind}.png")), cell_size=4)
            drawn = time.perf_counter() - started
            print(f"| {kind} | {grid.size:,} | {made:.2f} | {drawn:.2f} |")


if __name__ == "__main__":
    main()
