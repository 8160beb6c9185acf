"""The layered grid: square levels stacked in 3-D, linked up and down.

Shape ``(levels, rows, cols)``; cell ``(level * rows + r) * cols + c`` is level ``level`` (0 = the
lowest), row r (0 = north), column c (0 = west). Directions north, east, south, west within a
level, and up (to level + 1) and down (to level - 1) between the same row and column of adjacent
levels.

Geometry: each level is drawn as a square grid of unit cells, the levels side by side from west to
east with a one-cell gap: cell (level, r, c) covers ``[x0 + c, x0 + c + 1] x [r, r + 1]`` with
``x0 = level * (cols + 1)``. Up and down are not sides of a polygon (no edge carries them).
"""

from __future__ import annotations

import numpy as np

from ..support.memory import ensure_memory
from . import register_kind
from .base import Grid, apply_mask, check_cell_count
from .geometry import CellShapes, register_shapes, regular
from .hex import enabled_from_mask

DIRECTIONS = ("north", "east", "south", "west", "up", "down")
OPPOSITE = np.array([2, 3, 0, 1, 5, 4], dtype=np.int64)
NORTH, EAST, SOUTH, WEST, UP, DOWN = range(6)

BYTES_PER_CELL = 6 * 4 + 6 + 4 + 2


def layered_grid(levels: int, rows: int, cols: int, mask: np.ndarray | None = None) -> Grid:
    """``levels`` stacked ``rows`` x ``cols`` square grids, each cell linked to the one above and below.

    ``mask`` is an optional bool array (levels, rows, cols), True where a cell is enabled.

    Example
    -------
    >>> g = layered_grid(2, 2, 3)
    >>> g.neighbors[0].tolist()   # north, east, south, west, up, down of level 0's north-west cell
    [-1, 1, 3, -1, 6, -1]
    """
    levels, rows, cols = int(levels), int(rows), int(cols)
    what = f"a {levels}x{rows}x{cols} layered grid"
    count = levels * rows * cols if min(levels, rows, cols) > 0 else 0
    check_cell_count(count, what)
    ensure_memory(count * BYTES_PER_CELL, what)
    index = np.arange(count, dtype=np.int32).reshape(levels, rows, cols)
    neighbors: np.ndarray = np.full((levels, rows, cols, 6), -1, dtype=np.int32)
    neighbors[:, 1:, :, NORTH] = index[:, :-1, :]
    neighbors[:, :, :-1, EAST] = index[:, :, 1:]
    neighbors[:, :-1, :, SOUTH] = index[:, 1:, :]
    neighbors[:, :, 1:, WEST] = index[:, :, :-1]
    neighbors[:-1, :, :, UP] = index[1:]
    neighbors[1:, :, :, DOWN] = index[:-1]
    neighbors = neighbors.reshape(count, 6)
    enabled = enabled_from_mask(mask, (levels, rows, cols), count)
    apply_mask(neighbors, enabled)
    return Grid("layered", (levels, rows, cols), neighbors, OPPOSITE.copy(), DIRECTIONS, enabled)


_UNIT_SQUARE = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
_SIDES = np.array([NORTH, EAST, SOUTH, WEST])


def layered_shapes(grid: Grid) -> CellShapes:
    """Unit squares, the levels side by side with a one-cell gap (see the module docstring)."""
    levels, rows, cols = grid.shape
    level, rest = np.divmod(np.arange(grid.size), rows * cols)
    r, c = np.divmod(rest, cols)
    origin = np.stack([level * (cols + 1) + c, r], axis=1).astype(np.float64)
    points = origin[:, None, :] + _UNIT_SQUARE[None]
    return regular(points, np.broadcast_to(_SIDES, (grid.size, 4)).copy())


register_kind("layered", layered_grid)
register_shapes("layered", layered_shapes)
