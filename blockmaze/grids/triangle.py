"""The triangle ("delta") grid: rows of alternating upright and inverted triangles.

Cell ``r * cols + c`` is row r (0 = north), column c (0 = west); it is upright (apex up, flat base
down) where ``(r + c)`` is even, and inverted (flat top, apex down) otherwise. Every cell links
west and east within its row; an upright cell's third side is its base, leading south to the
inverted cell below it, and an inverted cell's third side is its top, leading north to the upright
cell above it. So upright cells have -1 north and inverted cells -1 south.

Geometry: equilateral triangles of unit side (height sqrt(3)/2); cell (r, c) spans x from c/2 to
c/2 + 1 and y from r sqrt(3)/2 to (r + 1) sqrt(3)/2.
"""

from __future__ import annotations

import numpy as np

from ..errors import BlockmazeError
from ..support.memory import ensure_memory
from . import register_kind
from .base import Grid, apply_mask, check_cell_count
from .geometry import CellShapes, rect_cell_origins, register_shapes, regular
from .hex import enabled_from_mask

DIRECTIONS = ("west", "east", "north", "south")
OPPOSITE = np.array([1, 0, 3, 2], dtype=np.int64)
WEST, EAST, NORTH, SOUTH = range(4)

BYTES_PER_CELL = 4 * 4 + 4 + 4 + 2
HEIGHT = np.sqrt(3.0) / 2


def triangle_grid(rows: int, cols: int, mask: np.ndarray | None = None) -> Grid:
    """A ``rows`` x ``cols`` grid of triangles, upright where row + column is even.

    ``mask`` is an optional bool array (rows, cols), True where a cell is enabled.

    Example
    -------
    >>> g = triangle_grid(2, 3)
    >>> g.neighbors[1].tolist()   # row 0, column 1: inverted, its top on the north edge
    [0, 2, -1, -1]
    >>> g.neighbors[0].tolist()   # row 0, column 0: upright, its base on the inverted cell 3
    [-1, 1, -1, 3]
    """
    rows, cols = int(rows), int(cols)
    what = f"a {rows}x{cols} triangle grid"
    check_cell_count(rows * cols if rows > 0 and cols > 0 else 0, what)
    if cols == 1 and rows > 2:
        raise BlockmazeError(
            f"{what} falls apart: in a single column an inverted cell has no link to the upright "
            "cell below it; use at least 2 columns (or at most 2 rows)"
        )
    ensure_memory(rows * cols * BYTES_PER_CELL, what)
    index = np.arange(rows * cols, dtype=np.int32).reshape(rows, cols)
    upright = (np.add.outer(np.arange(rows), np.arange(cols)) % 2) == 0
    neighbors: np.ndarray = np.full((rows, cols, 4), -1, dtype=np.int32)
    neighbors[:, 1:, WEST] = index[:, :-1]
    neighbors[:, :-1, EAST] = index[:, 1:]
    north = np.full((rows, cols), -1, dtype=np.int32)
    north[1:] = index[:-1]
    south = np.full((rows, cols), -1, dtype=np.int32)
    south[:-1] = index[1:]
    neighbors[..., NORTH] = np.where(upright, -1, north)
    neighbors[..., SOUTH] = np.where(upright, south, -1)
    neighbors = neighbors.reshape(rows * cols, 4)
    enabled = enabled_from_mask(mask, (rows, cols), rows * cols)
    apply_mask(neighbors, enabled)
    return Grid("triangle", (rows, cols), neighbors, OPPOSITE.copy(), DIRECTIONS, enabled)


# relative to the cell's top-left corner (c/2, r h); clockwise on screen
_UPRIGHT = np.array([[0.5, 0.0], [1.0, HEIGHT], [0.0, HEIGHT]])  # apex, base east, base west
_UPRIGHT_SIDES = np.array([EAST, SOUTH, WEST])
_INVERTED = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, HEIGHT]])  # top west, top east, apex
_INVERTED_SIDES = np.array([NORTH, EAST, WEST])


def triangle_shapes(grid: Grid) -> CellShapes:
    """Equilateral triangles of unit side (see the module docstring)."""
    rows, cols = grid.shape
    r, c = rect_cell_origins(rows, cols)
    corner = np.stack([c / 2, r * HEIGHT], axis=1)
    upright = (r + c) % 2 == 0
    points = corner[:, None, :] + np.where(upright[:, None, None], _UPRIGHT[None], _INVERTED[None])
    sides = np.where(upright[:, None], _UPRIGHT_SIDES[None], _INVERTED_SIDES[None])
    return regular(points, sides)


register_kind("triangle", triangle_grid)
register_shapes("triangle", triangle_shapes)
