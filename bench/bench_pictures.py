"""Picture rendering time: every grid kind x style x format for a 100x100 maze (target < 1 s).

Each row renders the picture into memory (PNG bytes through Pillow, SVG text encoded to bytes),
with the start/goal from ``place_endpoints(maze, "entrances")`` and, with ``--extras``, shading
and the solution too. The best of ``--repeat`` runs is reported.

A second table draws one big square maze as a PNG in its own process (banded: drawn and
encoded in strips), with its time and peak memory (target: 4000x4000 cells at cell size 4,
a 16008x16008-pixel PNG, under 20 s and 1 GB; 500x500 with ``--quick``).

    python bench/bench_pictures.py [--size 100] [--cell-size 16] [--repeat 3] [--extras] [--quick]
                                   [--big 4000] [--big-cell-size 4]
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tempfile

from blockmaze import generate, place_endpoints
from blockmaze.export.pictures import STYLES, render_png, render_svg, render_image
from timing import best

TARGET = 1.0
BIG_SECONDS, BIG_MB = 20.0, 1024
BIG_CHILD = """
import sys, time
import blockmaze as bm
from blockmaze.export.pictures import render_png
maze = bm.generate((int(sys.argv[1]), int(sys.argv[1])), rng=1)
started = time.perf_counter()
render_png(maze, sys.argv[3], cell_size=float(sys.argv[2]))
seconds = time.perf_counter() - started
with open("/proc/self/status") as status:
    peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) // 1024
print(seconds, peak)
"""


def big_picture(size: int, cell_size: float) -> bool:
    """One big square maze as a PNG in a child process: seconds (drawing + encoding) and peak MB
    (the whole process, maze included)."""
    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/big.png"
        out = subprocess.run([sys.executable, "-c", BIG_CHILD, str(size), str(cell_size), path],
                             capture_output=True, text=True, check=True).stdout.split()
        seconds, peak = float(out[0]), int(out[1])
        import struct
        with open(path, "rb") as png:  # the IHDR chunk (Pillow refuses to open so big a picture)
            pixels = struct.unpack(">II", png.read(24)[16:24])
        kb = __import__("os").path.getsize(path) / 1e3
    ok = "yes" if seconds < BIG_SECONDS and peak < BIG_MB else "NO"
    print(f"\nbig PNG (banded), targets < {BIG_SECONDS:g} s and < {BIG_MB} MB (4000x4000 cells, cell size 4)")
    print(f"{'cells':>11} {'cell':>5} {'pixels':>13} {'PNG s':>7} {'peak MB':>8} {'PNG kB':>8}  ok")
    print(f"{size:>5}x{size:<5} {cell_size:>5g} {pixels[0]:>6}x{pixels[1]:<6} {seconds:>7.1f} {peak:>8} {kb:>8.0f}  {ok}")
    return ok == "yes"


def shapes(size: int) -> dict[str, tuple[int, ...]]:
    return {"square": (size, size), "hex": (size, size), "upsilon": (size, size),
            "triangle": (size, size), "polar": (size,), "layered": (2, size, size)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--cell-size", type=float, default=16)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--extras", action="store_true", help="also shade and draw the solution")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 20x20, one repeat")
    parser.add_argument("--big", type=int, default=4000, help="side of the big maze (cells)")
    parser.add_argument("--big-cell-size", type=float, default=4)
    args = parser.parse_args()
    if args.quick:
        args.size, args.repeat, args.big = 20, 1, 500
    print(f"pictures of {args.size}x{args.size} mazes (polar: {args.size} rings; layered: 2 levels), "
          f"cell_size {args.cell_size:g}, extras {'on' if args.extras else 'off'}; target < {TARGET:g} s")
    print(f"{'kind':<9} {'cells':>6} {'style':<7} {'pixels':>10} {'PNG s':>7} {'SVG s':>7} "
          f"{'PNG kB':>8} {'SVG kB':>8}  ok")
    missed = 0
    for kind, shape in shapes(args.size).items():
        maze = generate(shape, kind=kind, rng=1)
        ends = place_endpoints(maze, "entrances")
        options = dict(cell_size=args.cell_size, endpoints=ends)
        if args.extras:
            options.update(shade=True, solution=True)
        for style in STYLES:
            render_image(maze, style=style, **options)  # warm up (numba BFS, imports)
            png, svg = io.BytesIO(), io.BytesIO()

            def do_png():
                png.seek(0), png.truncate()
                render_png(maze, png, style=style, **options)

            def do_svg():
                svg.seek(0), svg.truncate()
                render_svg(maze, svg, style=style, **options)

            t_png, t_svg = best(do_png, args.repeat).wall, best(do_svg, args.repeat).wall
            size = render_image(maze, style=style, **options).size
            ok = "yes" if max(t_png, t_svg) < TARGET else "NO"
            missed += ok == "NO"
            print(f"{kind:<9} {maze.grid.size:>6} {style:<7} {size[0]:>4}x{size[1]:<5} "
                  f"{t_png:>7.3f} {t_svg:>7.3f} {len(png.getvalue()) / 1e3:>8.0f} "
                  f"{len(svg.getvalue()) / 1e3:>8.0f}  {ok}")
    big = big_picture(args.big, args.big_cell_size)
    print(f"\nsummary: {missed} pictures over {TARGET:g} s; big PNG within its targets: "
          f"{'yes' if big else 'no'}: {'MISSED' if missed or not big else 'met'}")


if __name__ == "__main__":
    main()
