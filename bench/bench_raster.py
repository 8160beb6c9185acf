"""Benchmark of rasterization for every planar grid kind; prints a Markdown table.

    python bench/bench_raster.py             # 200x200 (polar: 100 rings) at scale 4
    python bench/bench_raster.py --quick     # 50x50 (polar: 25 rings), for a smoke test
    python bench/bench_raster.py --scale 8

Each row: the grid, the plan size in blocks, the best of a few warm runs of ``rasterize`` (the
kernels already compiled; the first, compiling call is listed apart), and the split of one warm
run into its stages (cell polygons, ownership, corridors and checks). Target: 200x200 hex or
upsilon at scale 4 in under 2 s.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import blockmaze as bm
from blockmaze.blocks.raster import MIN_SCALE, rasterize
from blockmaze.grids import GRID_KINDS
from timing import best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller mazes")
    parser.add_argument("--scale", type=int, default=4, help="blocks per unit length")
    parser.add_argument("--repeats", type=int, default=3, help="warm runs per kind (best is shown)")
    args = parser.parse_args()
    side = 50 if args.quick else 200
    print(f"rasterize, scale {args.scale} (blocks per unit length); best of {args.repeats} warm runs\n")
    print("| grid | cells | links | plan (x x z) | blocks | first call s | warm s | Mblocks/s |")
    print("|---|---|---|---|---|---|---|---|")
    for kind in MIN_SCALE:
        shape = (side // 2,) if kind == "polar" else (side, side)
        scale = max(args.scale, MIN_SCALE[kind])
        maze = bm.generate(GRID_KINDS[kind](*shape), rng=1)
        ends = bm.place_endpoints(maze, "entrances")
        start = time.perf_counter()
        plan = rasterize(maze, scale, ends, solution=True)
        first = time.perf_counter() - start
        warm = best(lambda: rasterize(maze, scale, ends, solution=True), args.repeats).wall
        name = f"{kind} {'x'.join(map(str, shape))}" + (f" (scale {scale})" if scale != args.scale else "")
        print(f"| {name} | {maze.grid.size} | {maze.passage_count} | {plan.shape[1]} x {plan.shape[0]} "
              f"| {plan.size / 1e6:.2f} M | {first:.2f} | {warm:.3f} | {plan.size / warm / 1e6:.1f} |")


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
