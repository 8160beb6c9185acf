"""Costs linear in the work: the time of a job at one size and at four times it (target: under 5x).

    python bench/bench_linear.py            # best of 5 runs each
    python bench/bench_linear.py --quick    # best of 2

Two jobs whose cost used to grow with the square of their parts: a mesh of one-block chunks (its
rectangles were picked out of every chunk's, 5.7x for 4x the blocks) and a layered maze's
schematic (each stairwell looked through every stairwell before it, 7.6x). CPU time of this
process, the best of a few runs after a warm-up run, so imports and numba's compile or cache load
are not counted. The last line says whether the target was met (MISSED otherwise); the run never
fails on it: a timing is a figure to read, not a test.
"""

from __future__ import annotations

import argparse
import io
import sys

import blockmaze
from blockmaze.grids import layered_grid
from blockmaze.support.kernels import forced
from timing import best

LIMIT = 5.0  # times the time of the small job, for four times the work


def glb(cells: int):
    maze = blockmaze.generate((cells, cells), rng=1)
    return lambda: blockmaze.save(maze, io.BytesIO(), format="glb", chunk=1, collision=True)


def layered_schem(cells: int):
    maze = blockmaze.generate(layered_grid(6, cells, cells), rng=1)
    return lambda: blockmaze.save(maze, io.BytesIO(), format="schem")


ROWS = [("GLB of 1-block chunks, 16x16 → 32x32 cells (numpy form)", "python", glb, 16),
        ("layered .schem, 6 levels, 30x30 → 60x60 cells", "numba", layered_schem, 30)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="best of 2 runs instead of 5")
    runs = 2 if parser.parse_args().quick else 5
    print(f"| job (best of {runs}, CPU s) | 1x | 4x the work | ratio |\n|---|---|---|---|")
    worst = 0.0
    for label, path, make, cells in ROWS:
        with forced(path):
            small, big = make(cells), make(2 * cells)
            small()  # warm-up
            one, four = best(small, runs).cpu, best(big, runs).cpu
        worst = max(worst, four / one)
        print(f"| {label} | {one:.3f} | {four:.3f} | {four / one:.1f}x |")
    print(f"\nsummary: the worst ratio is {worst:.1f}x (target under {LIMIT:.0f}x): "
          f"{'met' if worst < LIMIT else 'MISSED'}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
