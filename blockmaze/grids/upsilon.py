"""The upsilon grid: octagons and squares in a checkerboard, eight directions.

Cell ``r * cols + c`` is row r (0 = north), column c (0 = west); it is an octagon where
``(r + c)`` is even and a square otherwise. Octagons link in all eight directions (their
diagonal neighbours are octagons too); squares link only north, east, south and west (to
octagons) and have -1 in their four diagonal directions.

Geometry: the truncated square tiling with cell centres on the unit lattice, like the square grid:
cell (r, c) is centred at ``(c + 1/2, r + 1/2)``. Octagons and squares have the same side
``2 - sqrt(2)`` (about 0.586); an octagon is ``sqrt(2)`` wide, a square ``2 - sqrt(2)``.
"""

from __future__ import annotations

import numpy as np

from ..support.memory import ensure_memory
from . import register_kind
from .base import Grid, apply_mask, check_cell_count
from .geometry import CellShapes, rect_cell_origins, register_shapes
from .hex import enabled_from_mask

DIRECTIONS = ("north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest")
OPPOSITE = np.array([4, 5, 6, 7, 0, 1, 2, 3], dtype=np.int64)
STEPS = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]  # (drow, dcol)
DIAGONALS = [1, 3, 5, 7]

BYTES_PER_CELL = 8 * 4 + 8 + 4 + 2
SIDE = 2.0 - np.sqrt(2.0)
HALF_WIDTH = np.sqrt(2.0) / 2  # centre to an octagon's flat side
HALF_SIDE = SIDE / 2


def upsilon_grid(rows: int, cols: int, mask: np.ndarray | None = None) -> Grid:
    """A ``rows`` x ``cols`` grid of octagons (where row + column is even) and squares.

    ``mask`` is an optional bool array (rows, cols), True where a cell is enabled.

    Example
    -------
    >>> g = upsilon_grid(3, 3)
    >>> g.neighbors[4].tolist()   # the middle octagon: eight neighbours
    [1, 2, 5, 8, 7, 6, 3, 0]
    >>> g.neighbors[1].tolist()   # a square: no diagonals
    [-1, -1, 2, -1, 4, -1, 0, -1]
    """
    rows, cols = int(rows), int(cols)
    what = f"a {rows}x{cols} upsilon grid"
    check_cell_count(rows * cols if rows > 0 and cols > 0 else 0, what)
    ensure_memory(rows * cols * BYTES_PER_CELL, what)
    index = np.arange(rows * cols, dtype=np.int32).reshape(rows, cols)
    padded_index = np.full((rows + 2, cols + 2), -1, dtype=np.int32)
    padded_index[1:-1, 1:-1] = index
    neighbors: np.ndarray = np.empty((rows, cols, 8), dtype=np.int32)
    for d, (dr, dc) in enumerate(STEPS):
        neighbors[..., d] = padded_index[1 + dr: 1 + dr + rows, 1 + dc: 1 + dc + cols]
    square = (np.add.outer(np.arange(rows), np.arange(cols)) % 2).astype(bool)
    neighbors[square[:, :, None] & np.isin(np.arange(8), DIAGONALS)[None, None, :]] = -1
    # an octagon's diagonal neighbour is an octagon, so no octagon points at a square diagonally
    neighbors = neighbors.reshape(rows * cols, 8)
    enabled = enabled_from_mask(mask, (rows, cols), rows * cols)
    apply_mask(neighbors, enabled)
    return Grid("upsilon", (rows, cols), neighbors, OPPOSITE.copy(), DIRECTIONS, enabled)


# vertices clockwise on screen from the north side's west end; edge j joins vertex j and j + 1
_OCTAGON = np.array([[-HALF_SIDE, -HALF_WIDTH], [HALF_SIDE, -HALF_WIDTH],
                     [HALF_WIDTH, -HALF_SIDE], [HALF_WIDTH, HALF_SIDE],
                     [HALF_SIDE, HALF_WIDTH], [-HALF_SIDE, HALF_WIDTH],
                     [-HALF_WIDTH, HALF_SIDE], [-HALF_WIDTH, -HALF_SIDE]])
_OCTAGON_SIDES = np.arange(8)  # north, northeast, ..., northwest
_SQUARE = np.array([[-HALF_SIDE, -HALF_SIDE], [HALF_SIDE, -HALF_SIDE],
                    [HALF_SIDE, HALF_SIDE], [-HALF_SIDE, HALF_SIDE]])
_SQUARE_SIDES = np.array([0, 2, 4, 6])  # north, east, south, west


def upsilon_shapes(grid: Grid) -> CellShapes:
    """Octagons and squares of side ``2 - sqrt(2)`` centred on the unit lattice; padded to 8 vertices."""
    rows, cols = grid.shape
    r, c = rect_cell_origins(rows, cols)
    centres = np.stack([c + 0.5, r + 0.5], axis=1)
    octagon = (r + c) % 2 == 0
    points = np.full((rows * cols, 8, 2), np.nan)
    points[octagon] = centres[octagon][:, None, :] + _OCTAGON[None]
    points[~octagon, :4] = centres[~octagon][:, None, :] + _SQUARE[None]
    sides = np.full((rows * cols, 8), -1, dtype=np.int64)
    sides[octagon] = _OCTAGON_SIDES
    sides[~octagon, :4] = _SQUARE_SIDES
    counts = np.where(octagon, 8, 4).astype(np.int64)
    return CellShapes(points, sides, counts)


register_kind("upsilon", upsilon_grid)
register_shapes("upsilon", upsilon_shapes)
