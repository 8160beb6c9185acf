"""Write blockmaze/mazes/difficulty.json: the reference efforts --difficulty ranks mazes by.

    python bench/calibrate_difficulty.py            # 30 mazes a recipe, kind and size (~10 min)
    python bench/calibrate_difficulty.py --per 8 --out /tmp/d.json   # quicker, elsewhere
    python bench/calibrate_difficulty.py --quick    # CI smoke run: 2 a recipe, not written
    python bench/calibrate_difficulty.py --per 24 --kinds torus cube   # these kinds again, the
                                                    # others kept as the file has them

For each grid kind and three sizes (about 100, 1,000 and 10,000 cells), mazes of every recipe
(blockmaze.mazes.difficulty.recipes: every algorithm the kind has but Aldous-Broder, and
growing-tree at six mixes), seeds 0..per-1, made as ``blockmaze generate`` makes them (start
and goal the ends of the longest path; a weave grid with crossings at 0.5). Kept: the quantiles
of each effort over all of them, the quantiles of the mean of their ranks, and each recipe's
quantiles of difficulty (the search's weights). See docs/analysis.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from blockmaze.mazes import difficulty  # noqa: E402
from blockmaze.pipeline import make_maze  # noqa: E402

SIZES = {
    "square": [(10, 10), (30, 30), (100, 100)],
    "weave": [(10, 10), (30, 30), (100, 100)],
    "hex": [(10, 10), (30, 30), (100, 100)],
    "triangle": [(10, 10), (30, 30), (100, 100)],
    "upsilon": [(10, 10), (30, 30), (100, 100)],
    "polar": [(7,), (21,), (66,)],
    "layered": [(2, 7, 7), (3, 18, 18), (4, 50, 50)],
    "cylinder": [(10, 10), (30, 30), (100, 100)],
    "torus": [(10, 10), (30, 30), (100, 100)],
    "moebius": [(10, 10), (30, 30), (100, 100)],
    "cube": [(4,), (13,), (41,)],
    "sphere": [(10,), (34,), (106,)],
}
QUANTILES = 41
RECIPE_QUANTILES = 21
WEAVE = 0.5


def made(kind: str, shape: tuple[int, ...], algorithm: str, seed: int):
    return make_maze(shape, kind=kind, algorithm=algorithm, seed=seed,
                     weave=WEAVE if kind == "weave" else 0.0)


def calibrate(kind: str, shape: tuple[int, ...], per: int) -> dict:
    rows = {}
    cells = 0
    for algorithm in difficulty.recipes(kind):
        rows[algorithm] = []
        for seed in range(per):
            document = made(kind, shape, algorithm, seed)
            cells = document.maze.grid.enabled_count
            ends = document.endpoints
            rows[algorithm].append(difficulty.efforts(document.maze, ends.start, ends.goal))
    every = [row for found in rows.values() for row in found]
    share = np.linspace(0, 1, QUANTILES)
    size = {"shape": list(shape), "cells": cells,
            "efforts": {e: np.quantile([r[e] for r in every], share).round(6).tolist()
                        for e in difficulty.EFFORTS}}
    means = [np.mean([difficulty._rank(r[e], size["efforts"][e]) for e in difficulty.EFFORTS])
             for r in every]
    size["score"] = np.quantile(means, share).round(6).tolist()
    size["recipes"] = {
        algorithm: np.quantile([difficulty.score(r, size) for r in found],
                               np.linspace(0, 1, RECIPE_QUANTILES)).round(4).tolist()
        for algorithm, found in rows.items()}
    return size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per", type=int, default=30, help="mazes per recipe, kind and size")
    parser.add_argument("--out", type=Path, default=ROOT / "blockmaze/mazes/difficulty.json")
    parser.add_argument("--kinds", nargs="*", default=list(SIZES))
    parser.add_argument("--quick", action="store_true", help="2 mazes a recipe, nothing written")
    args = parser.parse_args()
    per = 2 if args.quick else args.per
    out = {"per_recipe": per, "weave": WEAVE, "kinds": {}}
    if set(args.kinds) != set(SIZES) and args.out.exists():  # some kinds: the rest as they are
        kept = json.loads(args.out.read_text(encoding="utf-8"))
        if kept["per_recipe"] != per and not args.quick:
            raise SystemExit(f"{args.out} has {kept['per_recipe']} mazes a recipe: give --per "
                             f"{kept['per_recipe']} to add kinds to it")
        out["kinds"] = {k: v for k, v in kept["kinds"].items() if k not in args.kinds}
    for kind in args.kinds:
        out["kinds"][kind] = []
        for shape in SIZES[kind][:1] if args.quick else SIZES[kind]:
            started = time.perf_counter()
            out["kinds"][kind].append(calibrate(kind, shape, per))
            print(f"{kind:9} {'x'.join(map(str, shape)):9} {time.perf_counter() - started:6.1f} s",
                  flush=True)
    if not args.quick:
        args.out.write_text(json.dumps(out, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
