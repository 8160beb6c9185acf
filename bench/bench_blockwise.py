"""Benchmark of the blockwise generators; prints a Markdown table.

    python bench/bench_blockwise.py            # 2001 x 2001 blocks (the targets' size)
    python bench/bench_blockwise.py --quick    # 401 x 401, for a smoke test

Each row is the best of a few runs after a warm-up call (numba compiled or loaded from cache).
Targets: relaxed generation of a 2001 x 2001 plan under 1 s; strict generation as fast as the
graph path it is built on (``generate`` + ``to_blocks``), which the table shows beside it.
"""

from __future__ import annotations

import argparse

import numpy as np

import blockmaze as bm
from blockmaze.blockwise.relaxed import relaxed_layout
from blockmaze.blockwise.strict import strict_layout, strict_volume_3d
from timing import best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="401 x 401 blocks instead of 2001 x 2001")
    parser.add_argument("--repeats", type=int, default=5, help="runs per row (best is shown)")
    args = parser.parse_args()
    size = 401 if args.quick else 2001
    cells = (size - 1) // 2
    rows = []

    def row(what, seconds, target="", note=""):
        rows.append((what, f"{seconds * 1000:.0f} ms", f"{size * size / seconds / 1e6:.1f}",
                     target, note))

    for ordering in ("backtracker", "prim", "growing-tree:0.5", "growing-tree:random",
                     "growing-tree:oldest"):
        layout = relaxed_layout(size, size, ordering, rng=1)
        seconds = best(lambda o=ordering: relaxed_layout(size, size, o, rng=1), args.repeats,
                       warm_up=True).wall
        note = f"{layout.open_count / layout.plan.size:.0%} open, dead share {layout.dead_share:.3f}"
        row(f"relaxed {ordering}", seconds, "< 1 s" if size == 2001 else "", note)

    for algorithm in ("backtracker", "wilson"):
        graph = best(lambda a=algorithm: bm.to_blocks(bm.generate((cells, cells), a, rng=1)),
                     args.repeats, warm_up=True).wall
        strict = best(lambda a=algorithm: strict_layout(size, size, a, rng=1), args.repeats,
                      warm_up=True).wall
        row(f"graph path generate + to_blocks, {algorithm}", graph, "", f"{cells}x{cells} cells")
        row(f"strict_plan, {algorithm}", strict, "= graph path", f"{strict / graph:.2f}x the graph path")
    spread = best(lambda: strict_layout(size + 1, size + 1, rng=1, wall=None, passage=None),
                  args.repeats, warm_up=True).wall
    row(f"strict_plan {size + 1}x{size + 1}, spread runs", spread, "", "even size, one run 2 thick")

    side = 101 if size == 2001 else 41
    volume_seconds = best(lambda: strict_volume_3d(side, side, side, rng=1), args.repeats,
                          warm_up=True).wall
    rows.append((f"strict_volume_3d {side}^3 blocks, backtracker", f"{volume_seconds * 1000:.0f} ms",
                 f"{side ** 3 / volume_seconds / 1e6:.1f}", "", f"{((side - 1) // 2) ** 3} cells"))

    header = ("generator", "time", "Mblocks/s", "target", "notes")
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    print(f"Blockwise generation, {size} x {size} blocks (numpy {np.__version__})\n")
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print("| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)) + " |")


if __name__ == "__main__":
    main()
