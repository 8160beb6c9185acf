"""REXPaint image ``.xp``: one layer of CP437 glyphs with colours, for REXPaint and libtcod.

Layout (docs/tilemaps.md §3): a gzip stream (no file name, time stamp
0) of little-endian int32 version ``-1``, int32 layer count ``1``, then the layer: int32 width,
int32 height and width x height cells **column-major** (x outer, y inner; y = row from the
north), each an int32 glyph code (CP437) and 3 bytes foreground RGB, 3 bytes background RGB.

Each tile is drawn as in the Tiled tile set: the material's theme colour as the background, its
theme glyph in black or white (whichever reads better) as the foreground — so the maze reads at
a glance, and no background is (255, 0, 255), REXPaint's "transparent". A glyph CP437 cannot
hold is refused. ``tcod.console.load_xp(path, order="C")`` loads it as a console.
"""

from __future__ import annotations

import gzip
from typing import BinaryIO

import numpy as np

from ...errors import BlockmazeError
from ...materials import Material, Theme
from .. import register_writer
from ..minecraft.blockdata import checked_theme  # (its states exist in some release)
from .tiles import check_plan_size, contrast, entity_marks, map_plan, tile_kinds

XP_VERSION = -1
MAX_SIDE = 0x7FFFFFFF  # int32 width and height
CELL = np.dtype([("glyph", "<i4"), ("fg", "u1", 3), ("bg", "u1", 3)])  # 10 bytes, packed


def write_xp(blocks: np.ndarray, file: BinaryIO, theme: Theme, compresslevel: int = 6,
             entities=None) -> None:
    """Write a one-layer (1, z, x) plan as a one-layer REXPaint image.

    ``entities`` (a dungeon level's, see :func:`tiles.entities`) are drawn over the plan:
    stairs going up ``<`` (stairs down keep the theme's glyph), monsters, items and treasure
    with the theme's glyphs, a lock's key ``k`` and its door ``L`` (:func:`tiles.entity_marks`).

    ``compresslevel`` is gzip's (0..9); 9 gains little on maze plans and is 15 times slower.

    Example
    -------
    >>> import io
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_xp(np.array([[[1, 1, 1], [5, 0, 6]]], np.uint8), out, load_theme())
    >>> raw = gzip.decompress(out.getvalue())
    >>> np.frombuffer(raw[:16], "<i4").tolist(), chr(raw[16 + 10])   # header, then cell x=0 y=1
    ([-1, 1, 3, 2], 'S')
    """
    if isinstance(compresslevel, bool) or compresslevel not in range(10):
        raise BlockmazeError(f"compresslevel must be a whole number 0..9, got {compresslevel!r}")
    plan = map_plan(blocks, ".xp", 24)
    table = cell_table(theme, plan)
    height, width = plan.shape
    header = np.array([XP_VERSION, 1, width, height], dtype="<i4").tobytes()
    cells = table[plan.T]  # (x, y): x outer, y inner = column-major
    for x, y, glyph, _ in entity_marks(theme, entities):
        cells[x, y]["glyph"] = ord(glyph.encode("cp437"))
    file.write(gzip.compress(header + cells.tobytes(), compresslevel, mtime=0))


def cell_table(theme: Theme, plan: np.ndarray | None = None) -> np.ndarray:
    """``table[material]``: the .xp cell drawing it; refuses glyphs CP437 lacks (on ``plan``).

    >>> from blockmaze.materials import load_theme
    >>> cell = cell_table(load_theme())[Material.WALL]
    >>> int(cell["glyph"]), cell["fg"].tolist(), cell["bg"].tolist()
    (35, [255, 255, 255], [122, 122, 122])
    """
    present = set(range(len(Material))) if plan is None else set(np.unique(plan).tolist())
    table = np.zeros(256, dtype=CELL)
    for kind in tile_kinds(theme):
        try:
            code = kind.glyph.encode("cp437")[0]
        except UnicodeEncodeError:
            if kind.id in present:
                raise BlockmazeError(
                    f"the {kind.name} glyph {kind.glyph!r} of theme {theme.name!r} is not in CP437, "
                    "the code page REXPaint draws: give the theme another glyph"
                ) from None
            code = ord("?")
        table[kind.id] = (code, contrast(kind.color), kind.color)
    return table


def check_size(shape: tuple[int, int, int]) -> None:
    """Refuse anything but a one-layer plan, before any work is done.

    >>> check_size((4, 3, 3))
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: REXPaint .xp draws a 2-D plan (z, x); got a volume 4 blocks high: pass the plan, not the extruded volume
    """
    check_plan_size(shape, "REXPaint .xp", MAX_SIDE)


register_writer("xp", write_xp, check_size, prepare_theme=checked_theme)
