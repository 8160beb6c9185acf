"""Counts the .stl files that are not watertight, over dungeon styles x level counts x seeds,
layered mazes, strict 3-D blockwise mazes and every grid kind (target: none).

    python bench/bench_watertight.py            # 20 seeds each
    python bench/bench_watertight.py --quick    # 3 seeds each

Each file is written by the command, as a user would (``blockmaze dungeon 12x16 --style caves
--levels 3 --seed N -o d.stl``), and loaded by trimesh, which merges vertices by position: it is
watertight when every edge has exactly two faces and the winding is consistent. The last line
says whether the target was met (MISSED otherwise); the run never fails on it.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile

import trimesh

from blockmaze.cli import main as blockmaze
from blockmaze.dungeon import STYLES


def watertight(arguments: list[str], path: str) -> bool:
    with contextlib.redirect_stderr(io.StringIO()):
        assert blockmaze(["-q", *arguments, "-o", path]) == 0, arguments
    mesh = trimesh.load(path)  # merges vertices by position
    return bool(mesh.is_watertight and mesh.is_winding_consistent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 seeds a row instead of 20")
    seeds = range(3 if parser.parse_args().quick else 20)
    rows = [(f"dungeon --style {style} --levels {levels}",
             ["dungeon", "12x16", "--style", style, "--levels", str(levels)])
            for style in STYLES for levels in (1, 2, 3)]
    rows += [("generate 3x4x5 -g layered (spiral stairs)", ["generate", "3x4x5", "-g", "layered", "--solution"]),
             ("blockwise 9x21x25 (strict 3-D)", ["blockwise", "9x21x25"])]
    rows += [(f"generate -g {kind} --roof", ["generate", size, "-g", kind, "--roof", "--solution"])
             for kind, size in (("square", "8x9"), ("hex", "6x7"), ("upsilon", "6x7"),
                                ("triangle", "6x9"), ("polar", "5"))]
    print(f"| what (.stl, {len(seeds)} seeds each) | not watertight |\n|---|---|")
    total = bad = 0
    with tempfile.TemporaryDirectory(prefix="bench_watertight_") as folder:
        path = os.path.join(folder, "m.stl")
        for label, arguments in rows:
            open_ = [seed for seed in seeds if not watertight([*arguments, "--seed", str(seed)], path)]
            total, bad = total + len(seeds), bad + len(open_)
            print(f"| {label} | {len(open_)}{' (seeds ' + ', '.join(map(str, open_)) + ')' if open_ else ''} |")
    print(f"\nsummary: {bad} of {total} meshes not watertight (target 0): {'met' if bad == 0 else 'MISSED'}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
