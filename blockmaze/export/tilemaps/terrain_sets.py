"""The terrain tiles Tiled's Wang set and LDtk's auto-layer rules paint: walls and floors on a
grid set half a tile off the plan (a "dual grid"), so an editor's brush can repaint them.

The plan's blocks are the terrain's **corners**: terrain tile ``(x, y)`` sits half a tile right
of and below block ``(x, y)``, and its four corners are the blocks ``(x, y)`` (top left),
``(x + 1, y)`` (top right), ``(x, y + 1)`` (bottom left) and ``(x + 1, y + 1)`` (bottom right),
each ``wall`` (the wall material) or ``floor`` (anything else). A tile's ``mask`` holds one bit
a corner, set for a wall: ``TOP_LEFT`` 1, ``TOP_RIGHT`` 2, ``BOTTOM_LEFT`` 4, ``BOTTOM_RIGHT``
8; its tile id in the tile set is ``FIRST + mask``, after the material tiles. The last column and
row of a plan have no terrain tile (their blocks are corners of the tiles before them). The
terrain's 16 tiles are drawn in quarters, each quarter the colour of the block under it, so the
terrain layer repaints the plan's walls and floors exactly where they are.

Example
-------
>>> plan = np.array([[1, 1], [1, 2]], np.uint8)   # wall, wall / wall, floor
>>> int(terrain_tiles(plan)[0, 0]) - FIRST, terrain_tiles(plan)[1].tolist()
(7, [-1, -1])
>>> wang_id(7)                                       # top, top-right, ... top-left
[0, 1, 0, 2, 0, 1, 0, 1]
"""

from __future__ import annotations

import numpy as np

from ...materials import Material

FIRST = len(Material)  # the terrain's tile ids follow the material tiles
COUNT = 16  # one tile a mask
TOP_LEFT, TOP_RIGHT, BOTTOM_LEFT, BOTTOM_RIGHT = 1, 2, 4, 8
CORNERS = ((0, 0, TOP_LEFT), (0, 1, TOP_RIGHT), (1, 0, BOTTOM_LEFT), (1, 1, BOTTOM_RIGHT))  # (dy, dx, bit)
WALL_COLOR, FLOOR_COLOR = 1, 2  # Tiled's Wang colour indices (0 = unset)
COLOR_NAMES = ("wall", "floor")
TERRAIN_NAME = "walls and floors"
# the tiles an editor shows for the set and each colour: all wall, all floor
ALL_WALL, ALL_FLOOR = FIRST + COUNT - 1, FIRST
ICONS = {"wall": ALL_WALL, "floor": ALL_FLOOR}


def is_wall(plan: np.ndarray) -> np.ndarray:
    """Which blocks the terrain counts as ``wall`` (the wall material; the rest is ``floor``).

    >>> is_wall(np.array([[0, 1, 2]], np.uint8)).tolist()
    [[False, True, False]]
    """
    return plan == Material.WALL


def terrain_tiles(plan: np.ndarray) -> np.ndarray:
    """Each position's terrain tile id (``FIRST + mask``) as int16, -1 on the last row and
    column, where no terrain tile goes (whole-array numpy, fast for millions of tiles).

    >>> terrain_tiles(np.array([[2, 2, 1]], np.uint8)).tolist()
    [[-1, -1, -1]]
    """
    wall = is_wall(plan)
    tiles = np.full(plan.shape, -1, np.int16)
    height, width = plan.shape
    if height > 1 and width > 1:
        inner = np.full((height - 1, width - 1), FIRST, np.int16)
        for dy, dx, bit in CORNERS:
            inner += bit * wall[dy:height - 1 + dy, dx:width - 1 + dx]
        tiles[:-1, :-1] = inner
    return tiles


def corner_walls(mask: int) -> dict[int, bool]:
    """Whether each corner bit of ``mask`` is a wall.

    >>> corner_walls(TOP_LEFT | BOTTOM_RIGHT)
    {1: True, 2: False, 4: False, 8: True}
    """
    return {bit: bool(mask & bit) for _, _, bit in CORNERS}


def wang_id(mask: int) -> list[int]:
    """Tiled's Wang id of the tile for ``mask``: eight colour indices, top, top right, right,
    bottom right, bottom, bottom left, left, top left; a corner set fills the corners only."""
    walls = corner_walls(mask)
    color = {bit: WALL_COLOR if wall else FLOOR_COLOR for bit, wall in walls.items()}
    return [0, color[TOP_RIGHT], 0, color[BOTTOM_RIGHT], 0, color[BOTTOM_LEFT], 0, color[TOP_LEFT]]


def rule_pattern(mask: int, wall_value: int) -> list[int]:
    """LDtk's 3x3 rule pattern (rows top down) that matches the block of a terrain tile for
    ``mask``: the centre and the cells right, below and below right must be the IntGrid value
    ``wall_value`` where ``mask`` has a wall and must not be where it has floor; the rest is any.

    >>> rule_pattern(TOP_LEFT, 2)
    [0, 0, 0, 0, 2, -2, 0, -2, -2]
    """
    pattern = [0] * 9
    for dy, dx, bit in CORNERS:
        pattern[(1 + dy) * 3 + 1 + dx] = wall_value if mask & bit else -wall_value
    return pattern


def half_tile(tile_size: int) -> int:
    """The terrain layer's offset right and down, in pixels: half a tile, rounded down.

    >>> half_tile(16), half_tile(5)
    (8, 2)
    """
    return int(tile_size) // 2


def draw_terrain_tiles(draw, left: int, tile_size: int, wall: tuple, floor: tuple) -> None:
    """Draw the 16 terrain tiles with Pillow's ``draw`` from pixel ``left`` on: each quarter
    in the ``wall`` or ``floor`` colour of its corner. The quarters split where the plan's
    blocks do under a layer set ``half_tile`` off."""
    split = tile_size - half_tile(tile_size)
    spans = ((0, split - 1), (split, tile_size - 1))
    for mask in range(COUNT):
        x0 = left + mask * tile_size
        for dy, dx, bit in CORNERS:
            (top, bottom), (start, end) = spans[dy], spans[dx]
            if bottom >= top and end >= start:
                draw.rectangle((x0 + start, top, x0 + end, bottom), fill=wall if mask & bit else floor)
