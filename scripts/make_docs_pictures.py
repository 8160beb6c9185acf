"""Remake the pictures of the documentation (docs/images/) from fixed seeds.

    python scripts/make_docs_pictures.py [FOLDER]      # default: docs/images

Maze and dungeon pictures are blockmaze's own PNG output (a dungeon level with spawns and a lock,
as ``blockmaze dungeon ... --spawns 3:2:1 --lock -o level.png`` draws it); builds (what a schematic, a world or a mesh holds) are
drawn as isometric blocks by :func:`isometric`. tests/test_docs.py checks every picture a page
shows is one this script makes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

import blockmaze as bm
from blockmaze.dungeon.stack import stack_dungeon
from blockmaze.export.dungeon_pictures import render_dungeon_image
from blockmaze.pipeline import make_maze

FOLDER = Path(__file__).resolve().parent.parent / "docs" / "images"
SEED = 2026
# grid kind -> the size the gallery shows it at
GRIDS = {"square": (8, 12), "hex": (7, 10), "upsilon": (7, 9), "triangle": (7, 14),
         "polar": (6,), "layered": (2, 5, 6), "weave": (7, 10)}
DUNGEON_STYLES = ("rooms-and-mazes", "caves", "bsp", "digger", "mixed")
DUNGEON_SPAWNS, DUNGEON_CELL = (3, 2, 1), 12  # monsters, items, treasure; pixels a cell


def shade(rgb: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    """``rgb`` darkened by ``factor`` (1 keeps it)."""
    return tuple(int(c * factor) for c in rgb)  # type: ignore[return-value]


def isometric(volume: np.ndarray, side: int = 8) -> Image.Image:
    """A (y, z, x) volume drawn as isometric blocks seen from the south-east, above.

    Blocks are painted far to near (by x + y + z), each with its visible top, south and east
    faces in the theme's colours; faces against another block are left out.

    >>> isometric(np.ones((1, 1, 1), dtype=np.uint8), side=4).size
    (8, 10)
    """
    theme = bm.load_theme()
    height, length, width = volume.shape
    dx, dy = side * 0.866, side * 0.5  # the screen step of one block along x or z

    def point(x: float, y: float, z: float) -> tuple[float, float]:
        return (x - z + length) * dx, (x + z) * dy + (height - y) * side

    size = (int((width + length) * dx) + 2, int((width + length) * dy + height * side) + 2)
    picture = Image.new("RGB", size, (255, 255, 255))
    draw = ImageDraw.Draw(picture)
    solid = np.pad(volume != bm.Material.AIR, 1)
    ys, zs, xs = np.nonzero(volume)
    for i in np.argsort(xs + ys + zs, kind="stable"):
        y, z, x = int(ys[i]), int(zs[i]), int(xs[i])
        rgb = theme.color(int(volume[y, z, x]))
        faces = [((x, y + 1, z), (x + 1, y + 1, z), (x + 1, y + 1, z + 1), (x, y + 1, z + 1), 1.0,
                  solid[y + 2, z + 1, x + 1]),
                 ((x, y, z + 1), (x + 1, y, z + 1), (x + 1, y + 1, z + 1), (x, y + 1, z + 1), 0.7,
                  solid[y + 1, z + 2, x + 1]),
                 ((x + 1, y, z), (x + 1, y, z + 1), (x + 1, y + 1, z + 1), (x + 1, y + 1, z), 0.85,
                  solid[y + 1, z + 1, x + 2])]
        for *corners, light, covered in faces:
            if not covered:
                draw.polygon([point(*c) for c in corners], fill=shade(rgb, light),
                             outline=shade(rgb, light * 0.8))
    return picture


def pictures() -> dict[str, object]:
    """File name -> what makes it: a maze (saved as a PNG by blockmaze) or a drawn picture."""
    made: dict[str, object] = {}
    for kind, shape in GRIDS.items():
        options = dict(weave=1.0, algorithm="kruskal:weave") if kind == "weave" else {}
        made[f"grid-{kind}.png"] = (make_maze(shape, kind, seed=SEED, **options),
                                    dict(solution=True, cell_size=16))
    square = make_maze(GRIDS["square"], seed=SEED)
    for style in ("walls", "paths", "blocks"):
        made[f"style-{style}.png"] = (square, dict(style=style, cell_size=16))
    made["style-shaded.png"] = (square, dict(shade=True, solution=True, cell_size=16))
    for style in DUNGEON_STYLES:
        level = bm.generate_dungeon((15, 22), SEED, style=style, spawns=DUNGEON_SPAWNS,
                                    lock=True).levels[0]
        made[f"dungeon-{style}.png"] = render_dungeon_image(level, cell_size=DUNGEON_CELL)
    small = make_maze((6, 6), seed=SEED, entrances=True)
    made["build-schematic.png"] = isometric(bm.build(small.maze, small.endpoints, solution=True,
                                                     passage=2))
    layered = make_maze((2, 3, 3), "layered", seed=SEED)
    made["build-layered.png"] = isometric(bm.build(layered.maze, layered.endpoints,
                                                   solution=True))
    dungeon = bm.generate_dungeon((6, 8), SEED, levels=2, style="bsp")
    made["build-dungeon.png"] = isometric(stack_dungeon(dungeon, roof=False), side=7)
    return made


def make_pictures(folder: Path = FOLDER) -> list[Path]:
    """Write every picture into ``folder``; return their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, what in pictures().items():
        path = folder / name
        if isinstance(what, Image.Image):
            what.save(path, optimize=True)
        else:
            document, options = what  # type: ignore[misc]
            bm.save(document.maze, path, endpoints=document.endpoints, **options)
        paths.append(path)
    return paths


if __name__ == "__main__":
    for written in make_pictures(Path(sys.argv[1]) if len(sys.argv) > 1 else FOLDER):
        print(written)
