"""Tile maps with their terrain (Tiled's Wang set, LDtk's auto-layer): time and size to write.

    python bench/bench_terrain_sets.py           # a 500x500-cell maze (1001x1001 tiles), best of 3
    python bench/bench_terrain_sets.py --quick   # CI smoke run: 50x50 cells, one run

For each format (TMX and TMJ in CSV and base64-zlib, LDtk) the table gives the whole write to
memory, its bytes, and the part the terrain adds: the terrain tile ids (numpy over the plan)
and, for LDtk, its ``autoLayerTiles`` text. No target in issue 52 names these; the numbers say
what the terrain costs beside the rest of the file. Benches print; they never fail on a time.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import blockmaze as bm  # noqa: E402
from blockmaze.export.tilemaps import ldtk, terrain_sets  # noqa: E402
from timing import best  # noqa: E402

FORMATS = (("tmx", {"encoding": "csv"}), ("tmx", {"encoding": "base64-zlib"}),
           ("tmj", {"encoding": "csv"}), ("ldtk", {}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=500, help="maze side in cells")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="50x50 cells, one run")
    options = parser.parse_args()
    if options.quick:
        options.cells, options.runs = 50, 1
    maze = bm.generate((options.cells, options.cells), rng=1)
    plan = bm.to_blocks(maze, endpoints=bm.place_endpoints(maze))
    height, width = plan.shape
    tiles = best(lambda: terrain_sets.terrain_tiles(plan), options.runs)
    rules = list(range(terrain_sets.COUNT))
    auto = best(lambda: sum(len(c) for c in ldtk._terrain_tiles(plan, 16, rules)), options.runs)
    print(f"{options.cells}x{options.cells}-cell maze: {width}x{height} tiles\n")
    print("| format | write s (wall / CPU) | bytes | terrain's part s (wall) |")
    print("|---|---|---|---|")
    for fmt, extra in FORMATS:
        def write(fmt=fmt, extra=extra):
            out = io.BytesIO()
            bm.write(plan[None], out, format=fmt, **extra)
            return len(out.getvalue())

        run = best(write, options.runs, warm_up=True)
        part = tiles.wall + (auto.wall if fmt == "ldtk" else 0)
        label = fmt + (f" {extra['encoding']}" if extra else "")
        print(f"| {label} | {run.wall:.2f} / {run.cpu:.2f} | {run.result:,} | {part:.3f} |")
    print(f"\nterrain tile ids (numpy): {tiles.wall:.3f} s; LDtk autoLayerTiles text: "
          f"{auto.wall:.2f} s, {auto.result:,} bytes")


if __name__ == "__main__":
    main()
