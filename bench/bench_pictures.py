"""Picture rendering time: every grid kind x style x format for a 100x100 maze (target < 1 s).

Each row renders the picture into memory (PNG bytes through Pillow, SVG text encoded to bytes),
with the start/goal from ``place_endpoints(maze, "entrances")`` and, with ``--extras``, shading
and the solution too. The best of ``--repeat`` runs is reported.

    python bench/bench_pictures.py [--size 100] [--cell-size 16] [--repeat 3] [--extras] [--quick]
"""

from __future__ import annotations

import argparse
import io
import time

from blockmaze import generate, place_endpoints
from blockmaze.export.pictures import STYLES, render_png, render_svg, render_image

TARGET = 1.0


def shapes(size: int) -> dict[str, tuple[int, ...]]:
    return {"square": (size, size), "hex": (size, size), "upsilon": (size, size),
            "triangle": (size, size), "polar": (size,), "layered": (2, size, size)}


def best(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--cell-size", type=float, default=16)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--extras", action="store_true", help="also shade and draw the solution")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 20x20, one repeat")
    args = parser.parse_args()
    if args.quick:
        args.size, args.repeat = 20, 1
    print(f"pictures of {args.size}x{args.size} mazes (polar: {args.size} rings; layered: 2 levels), "
          f"cell_size {args.cell_size:g}, extras {'on' if args.extras else 'off'}; target < {TARGET:g} s")
    print(f"{'kind':<9} {'cells':>6} {'style':<7} {'pixels':>10} {'PNG s':>7} {'SVG s':>7} "
          f"{'PNG kB':>8} {'SVG kB':>8}  ok")
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

            t_png, t_svg = best(do_png, args.repeat), best(do_svg, args.repeat)
            size = render_image(maze, style=style, **options).size
            ok = "yes" if max(t_png, t_svg) < TARGET else "NO"
            print(f"{kind:<9} {maze.grid.size:>6} {style:<7} {size[0]:>4}x{size[1]:<5} "
                  f"{t_png:>7.3f} {t_svg:>7.3f} {len(png.getvalue()) / 1e3:>8.0f} "
                  f"{len(svg.getvalue()) / 1e3:>8.0f}  {ok}")


if __name__ == "__main__":
    main()
