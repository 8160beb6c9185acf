"""Dungeon generation speed per level style, and dungeon -> TMX end to end; prints tables.

    python bench/bench_dungeon.py              # sizes 100, 300, 1000 (cells a side); styles at
                                               # 200x300 and 2000x3000 tiles
    python bench/bench_dungeon.py --quick      # 100 and 300 only; styles at 200x300 tiles

Times are the best of ``--repeat`` runs (kernels are compiled before timing); ``cpu`` is the
process's CPU time, which a busy machine inflates less than the wall clock. The issue's target:
a 1000x1000-cell dungeon (2001x2001 blocks) generated well under 3 s, and written as TMX in
under 3 s end to end. Issue 18's targets: each level style at 200x300 tiles under 0.2 s and at
2000x3000 tiles under 5 s (the style table; "+ lock, spawns" adds a lock and key and 20/10/5
spawns; metrics are measured in every row).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import numpy as np

import blockmaze as bm
from blockmaze.dungeon import STYLES, generate_dungeon
from blockmaze.materials import SOLID
from timing import best

CONFIGS = {
    "default (sparseness 1)": {},
    "sparseness 0.5": dict(sparseness=0.5),
    "no dead-end removal": dict(sparseness=0.0),
    "loops (min_shortcut 20)": dict(min_shortcut=20),
    "extra 0.05 + sparse 0.5 + loops 20": dict(extra_doors=0.05, sparseness=0.5, min_shortcut=20),
    "wilson maze": dict(algorithm="wilson"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the 1000x1000 size")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (best is shown)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    sizes = (100, 300) if args.quick else (100, 300, 1000)
    styles(args)

    generate_dungeon((20, 20), 0, min_shortcut=10, extra_doors=0.1, levels=2)  # compile
    print("generation (best of %d), seed %d" % (args.repeat, args.seed))
    print(f"{'cells':>11} {'blocks':>11} {'options':<36} {'seconds':>8} {'cpu':>6} "
          f"{'rooms':>7} {'doors':>7} {'loops':>7} {'open':>6}")
    for n in sizes:
        for name, options in CONFIGS.items():
            seconds, cpu, d = best(lambda: generate_dungeon((n, n), args.seed, **options), args.repeat)
            level = d.levels[0]
            share = float((~SOLID[level.plan]).mean())
            print(f"{f'{n}x{n}':>11} {f'{2*n+1}x{2*n+1}':>11} {name:<36} {seconds:8.3f} {cpu:6.3f} "
                  f"{len(level.rooms):7d} {len(level.doors):7d} {len(level.loops):7d} {share:6.1%}")
    n = sizes[-1]
    seconds, cpu, d = best(lambda: generate_dungeon((n, n), args.seed, levels=3), args.repeat)
    print(f"{f'{n}x{n}':>11} {f'{2*n+1}x{2*n+1}':>11} {'3 levels':<36} {seconds:8.3f} {cpu:6.3f}")

    if "tmx" not in bm.WRITERS:
        print("\nno tmx writer registered: end-to-end table skipped")
        return
    print("\ndungeon -> .tmx end to end (generate + write, default options), best of %d" % args.repeat)
    print(f"{'cells':>11} {'encoding':<12} {'generate':>9} {'write':>8} {'total':>8} {'MB':>8}")
    with tempfile.TemporaryDirectory(prefix="bench_dungeon_") as folder:
        path = os.path.join(folder, "dungeon.tmx")
        for n in sizes:
            for encoding in ("csv", "base64-zlib"):
                totals, gens, writes = [], [], []
                for _ in range(args.repeat):
                    start = time.perf_counter()
                    plan = generate_dungeon((n, n), args.seed).plan
                    middle = time.perf_counter()
                    bm.write(plan, path, encoding=encoding)
                    end = time.perf_counter()
                    gens.append(middle - start)
                    writes.append(end - middle)
                    totals.append(end - start)
                i = int(np.argmin(totals))
                size = os.path.getsize(path) / 1e6
                print(f"{f'{n}x{n}':>11} {encoding:<12} {gens[i]:9.3f} {writes[i]:8.3f} "
                      f"{totals[i]:8.3f} {size:8.2f}")


def styles(args) -> None:
    """Issue 18's table: every style at 200x300 tiles (and 2000x3000 unless --quick)."""
    for style in STYLES:  # compile
        generate_dungeon((10, 12), 0, style=style, lock=True, spawns=(2, 2, 2), levels=2)
    tiles = ((200, 300),) if args.quick else ((200, 300), (2000, 3000))
    print(f"level styles (best of {args.repeat}), seed {args.seed}")
    print(f"{'tiles':>11} {'style':<16} {'extras':<16} {'seconds':>8} {'target':>7} {'cpu':>6} "
          f"{'open':>6} {'rooms':>7} {'dead ends':>9} {'loops':>7} {'longest':>8}")
    for height, width in tiles:
        target = 0.2 if height * width <= 200 * 300 else 5.0
        for style in STYLES:
            for extras, options in (("-", {}), ("+ lock, spawns", dict(lock=True, spawns=(20, 10, 5)))):
                cells = (height // 2, width // 2)  # a (2 rows + 1) x (2 cols + 1) plan
                seconds, cpu, d = best(lambda: generate_dungeon(cells, args.seed, style=style, **options),
                                       args.repeat)
                m = d.levels[0].metrics
                shape = "x".join(map(str, d.plan.shape))
                print(f"{shape:>11} {style:<16} {extras:<16} {seconds:8.3f} {target:7.1f} {cpu:6.3f} "
                      f"{m['walkable_share']:6.1%} {m['rooms']:7d} {m['dead_ends']:9d} {m['loops']:7d} "
                      f"{m['longest_path']:8d}")
    print(f"\ncave level -> .ldtk (IntGrid, tiles, entities; best of {args.repeat})")
    print(f"{'tiles':>11} {'write s':>8} {'MB':>8}")
    with tempfile.TemporaryDirectory(prefix="bench_dungeon_") as folder:
        path = os.path.join(folder, "level.ldtk")
        for height, width in tiles:
            level = generate_dungeon((height // 2, width // 2), args.seed, style="caves", lock=True,
                                     spawns=(20, 10, 5)).levels[0]
            seconds, _, _ = best(lambda: bm.write(level.plan, path, entities=level.entities), args.repeat)
            shape = "x".join(map(str, level.plan.shape))
            print(f"{shape:>11} {seconds:8.3f} {os.path.getsize(path) / 1e6:8.2f}")
    print()


if __name__ == "__main__":
    main()
