"""Big square-grid pictures drawn and encoded band by band, so memory is bounded by a band.

Each band of cell rows is drawn as its own small maze — the band's rows plus one row above (two
when that keeps the band's pixel shift even, as Pillow rounds halves to even) and one below, so every wall, line end and marker that reaches into the band is drawn exactly as the whole
picture would draw it — and only the band's pixel rows are kept. Distances (``shade``) and the
solution are computed once for the whole maze and handed to each band. The rows are
zlib-compressed as they come and written as PNG chunks here (signature, IHDR, PLTE, IDAT...,
IEND), so no whole image, scene or PNG is ever in memory. Pixels are those of the whole-picture
renderer (a test compares them); the bytes are deterministic.

Example
-------
>>> import io
>>> from blockmaze import generate
>>> from blockmaze.export.pictures import render_image
>>> maze = generate((9, 7), rng=3)
>>> out = io.BytesIO(); write_png_bands(maze, out, band_rows=2, cell_size=6)
>>> from PIL import Image
>>> image = Image.open(io.BytesIO(out.getvalue()))
>>> bool((np.asarray(image) == np.asarray(render_image(maze, cell_size=6))).all())
True
"""

from __future__ import annotations

import struct
import zlib
from types import SimpleNamespace
from typing import BinaryIO

import numpy as np

from ..errors import BlockmazeError
from ..maze import Maze
from .picture_scene import (MAX_PIXELS, WALL, _Builder, _checked_options, _compress_level_for,
                            _draw_png, _Layer, _Scene)

BAND_PIXELS = 1 << 21  # pixels drawn at a time (2 MB of palette indices; some 30 MB of work arrays)
SIGNATURE = b"\x89PNG\r\n\x1a\n"


def can_band(maze: Maze, options: dict) -> bool:
    """Whether the banded writer draws this picture: a square grid, a whole-number cell size and
    walls no wider than a cell (so a band's borrowed rows hold everything that reaches into it);
    not the blocks style with the solution."""
    return kind_can_band(maze.grid.kind, options)


def kind_can_band(kind: str, options: dict) -> bool:
    """:func:`can_band` for a maze of grid ``kind``, before the maze is made.

    >>> kind_can_band("square", {"cell_size": 4}), kind_can_band("hex", {"cell_size": 4})
    (True, False)
    """
    size, wall = options.get("cell_size", 16), options.get("wall_width")
    number = (int, float, np.integer, np.floating)
    if options.get("style") == "blocks" and options.get("solution"):
        return False  # the 2n+1 plan marks its own solution: drawn whole
    return bool(kind == "square" and isinstance(size, number) and not isinstance(size, bool)
                and np.isfinite(size) and size >= 1 and float(size) == int(size)
                and (wall is None or (isinstance(wall, number) and np.isfinite(wall) and wall <= size)))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _sub_maze(maze: Maze, lo: int, hi: int) -> tuple[Maze, np.ndarray]:
    """Rows lo..hi-1 of a square maze as a maze of their own (links leaving them cut), and the
    global ids of its cells."""
    from ..grids import square_grid

    grid = maze.grid
    cols = grid.shape[1]
    cells = np.arange(lo * cols, hi * cols)
    mask = grid.enabled[cells].reshape(hi - lo, cols)
    sub = square_grid(hi - lo, cols, mask=None if mask.all() else mask)
    across = grid.neighbors[cells]
    links = maze.links[cells] & (across >= lo * cols) & (across < hi * cols)
    return Maze(sub, links, validate=False), cells


_CORNERS = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float64)  # a square cell's, in order


def _square_walls(sub: Maze, ends, s: int, margin: float) -> list[np.ndarray]:
    """The walls style's wall edges of a square maze in pixels, as the scene builder finds them:
    edge j of cell (r, c) runs from corner j to corner j + 1 (north, east, south, west), drawn by
    an enabled cell where not linked or opened, and by the lower cell of two."""
    grid = sub.grid
    cols = grid.shape[1]
    index = np.arange(grid.size)[:, None]
    wall = grid.enabled[:, None] & ~sub.links & ((grid.neighbors < 0) | (grid.neighbors > index))
    for cell, direction in (ends.openings if ends is not None else ()):
        wall[cell, direction] = False
    cell, j = np.nonzero(wall)
    corner = np.stack([cell % cols, cell // cols], axis=1).astype(np.float64)
    return [(corner + _CORNERS[j]) * s + margin, (corner + _CORNERS[(j + 1) % 4]) * s + margin]


def _band_endpoints(endpoints, lo_cell: int, hi_cell: int):
    """The endpoints as a band sees them: its own cell ids; start/goal -1 when elsewhere."""
    if endpoints is None:
        return None

    def local(cell):
        return -1 if cell is None or not lo_cell <= int(cell) < hi_cell else int(cell) - lo_cell

    openings = tuple((int(c) - lo_cell, int(d)) for c, d in endpoints.openings if lo_cell <= int(c) < hi_cell)
    def inside(cells) -> tuple[int, ...]:
        return tuple(int(c) - lo_cell for c in cells if lo_cell <= int(c) < hi_cell)

    return SimpleNamespace(start=local(endpoints.start), goal=local(endpoints.goal), openings=openings,
                           checkpoints=inside(endpoints.checkpoints), exits=inside(endpoints.exits))


def write_png_bands(maze: Maze, file: BinaryIO, band_rows: int | None = None, **options) -> None:
    """Write the maze as a PNG, drawn and compressed band by band (options as for
    :func:`blockmaze.export.pictures.render_image`; see :func:`can_band`)."""

    if not can_band(maze, options):
        raise BlockmazeError("banded PNGs are drawn for square grids with a whole-number cell_size "
                             "and walls no wider than a cell (and not the blocks style with the solution)")
    rows, cols = maze.grid.shape
    checked = _checked_options(maze, **options)
    style, s, line, ends = checked["style"], int(checked["s"]), checked["wall_width"], checked["endpoints"]
    palette = list(checked["palette"])
    # the whole picture's layout, from a one-row stand-in (same margins and padding)
    probe = _Builder(_sub_maze(maze, 0, 1)[0], style, s, line, None, False, None, list(palette))
    width, height = probe.width, rows * s + probe.height - s
    if width * height > MAX_PIXELS:
        raise BlockmazeError(f"a {width}x{height}-pixel picture is too large; choose a smaller cell size")
    shading = path = None  # (each cell's shade level, the palette index of the ramp's first)
    if checked["stops"] is not None:  # distances over the whole maze, by the renderer's own code
        whole = _Builder.__new__(_Builder)
        whole.grid, whole.maze, whole.endpoints, whole.palette = maze.grid, maze, ends, palette
        whole._shade_levels(checked["stops"])
        shading = whole.levels, whole.ramp_base
    if checked["solution"]:
        path = maze.shortest_path(int(ends.start), int(ends.goal))
    if band_rows is None:
        band_rows = max(1, BAND_PIXELS // max(1, width * s))
    top = probe.px(np.zeros((1, 2)))[0, 1]  # pixel y of the grid's north edge
    compressor = zlib.compressobj(_compress_level_for(width * height), zlib.DEFLATED, 15, 9)
    file.write(SIGNATURE + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
               + _chunk(b"PLTE", bytes(v for rgb in palette for v in rgb)))
    done, pending = 0, []
    plain = style == "walls" and shading is None and path is None and probe.line < 3
    lo = r1 = 0

    def _emit(scene) -> None:
        nonlocal done, pending
        image = np.asarray(_draw_png(scene))
        offset = lo * s  # the band image's row 0 is this row of the whole picture
        stop = height if r1 == rows else int(round(top + r1 * s))
        band = np.zeros((stop - done, width + 1), np.uint8)  # filter byte 0, then the row
        band[:, 1:] = image[done - offset:stop - offset]
        pending.append(compressor.compress(band.tobytes()))
        if sum(map(len, pending)) >= 1 << 16:
            file.write(_chunk(b"IDAT", b"".join(pending)))
            pending = []
        done = stop

    for r0 in range(0, rows, band_rows):
        r1 = min(rows, r0 + band_rows)
        lo, hi = max(0, r0 - 1), min(rows, r1 + 1)
        lo -= (lo * s) % 2  # an even pixel shift: rounding halves to even is unchanged by it
        sub, cells = _sub_maze(maze, lo, hi)
        band_ends = _band_endpoints(ends, int(cells[0]), int(cells[-1]) + 1)
        if plain:  # the default walls: their edges straight from the links, no scene builder
            scene = _Scene(width, int(np.ceil((hi - lo) * s + 2 * probe.margin)), palette,
                           [_Layer("segments", "walls", WALL,
                                   _square_walls(sub, band_ends, s, probe.margin),
                                   probe.line, svg=False)])
            _emit(scene)
            continue
        builder = _Builder(sub, style, s, line, band_ends, False, None, list(palette))
        builder.segments = True
        if shading is not None:
            builder.levels, builder.ramp_base = shading[0][cells], shading[1]
        if path is not None:
            inside = (path >= cells[0]) & (path <= cells[-1])
            runs = np.split(path, np.flatnonzero(np.diff(inside.astype(np.int8))) + 1)
            pieces = [run - cells[0] for run in runs if cells[0] <= run[0] <= cells[-1]]
            builder.solution = True
            builder.pieces = pieces
        scene = builder.scene()
        scene.layers = [layer for layer in scene.layers  # start and goal dots of other bands
                        if not (layer.name in ("start", "goal")
                                and getattr(band_ends, layer.name) < 0)]
        scene.palette = palette
        _emit(scene)
    pending.append(compressor.flush())
    file.write(_chunk(b"IDAT", b"".join(pending)) + _chunk(b"IEND", b""))
