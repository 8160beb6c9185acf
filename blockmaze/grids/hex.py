"""The hex ("sigma") grid: flat-topped hexagons in zig-zag columns, six directions.

Cell ``r * cols + c`` is row r (0 = north), column c (0 = west). Columns zig-zag: odd columns sit
half a cell lower than even ones, so an even column's north diagonals (north-east, north-west)
lead to the row above, and an odd column's to the same row; an even column's south diagonals lead
to the same row, an odd column's to the row below. "east" in the sense of binary tree/sidewinder
(same row, next column) is south-east from even columns and north-east from odd ones; see
:func:`row_east`.

Geometry: regular hexagons with unit side (width 2, height sqrt(3)); cell (r, c) has its centre at
``(1 + 1.5 c, sqrt(3) (r + 1/2) + (sqrt(3)/2 if c is odd))``.
"""

from __future__ import annotations

import numpy as np

from ..errors import BlockmazeError
from ..support.memory import ensure_memory
from . import register_kind
from .base import Grid, apply_mask, check_cell_count
from .geometry import CellShapes, rect_cell_origins, register_shapes, regular

DIRECTIONS = ("north", "northeast", "southeast", "south", "southwest", "northwest")
OPPOSITE = np.array([3, 4, 5, 0, 1, 2], dtype=np.int64)
NORTH, NORTHEAST, SOUTHEAST, SOUTH, SOUTHWEST, NORTHWEST = range(6)

BYTES_PER_CELL = 6 * 4 + 6 + 4 + 2
HEIGHT = np.sqrt(3.0)


def _shifted(index: np.ndarray, dr: np.ndarray, dc: int) -> np.ndarray:
    """The cell at row ``r + dr[c]``, column ``c + dc`` of every cell (r, c), or -1 outside."""
    rows, cols = index.shape
    r = np.arange(rows)[:, None] + dr[None, :]
    c = np.arange(cols)[None, :] + dc
    inside = (r >= 0) & (r < rows) & (c >= 0) & (c < cols)
    out = np.full((rows, cols), -1, dtype=np.int32)
    rr, cc = np.broadcast_arrays(r, np.broadcast_to(c, (rows, cols)))
    out[inside] = index[rr[inside], cc[inside]]
    return out


def hex_grid(rows: int, cols: int, mask: np.ndarray | None = None) -> Grid:
    """A ``rows`` x ``cols`` grid of flat-topped hexagons in zig-zag columns.

    ``mask`` is an optional bool array (rows, cols), True where a cell is enabled.

    Example
    -------
    >>> g = hex_grid(3, 3)
    >>> g.neighbors[4].tolist()   # the middle cell (odd column): all six neighbours
    [1, 5, 8, 7, 6, 3]
    >>> g.neighbors[3].tolist()   # row 1, column 0 (even): north diagonals go to row 0
    [0, 1, 4, 6, -1, -1]
    """
    rows, cols = int(rows), int(cols)
    what = f"a {rows}x{cols} hex grid"
    check_cell_count(rows * cols if rows > 0 and cols > 0 else 0, what)
    ensure_memory(rows * cols * BYTES_PER_CELL, what)
    index = np.arange(rows * cols, dtype=np.int32).reshape(rows, cols)
    odd = np.arange(cols) % 2
    north_diagonal = odd - 1  # row offset of the north diagonals: -1 in even columns, 0 in odd
    south_diagonal = odd      # 0 in even columns, +1 in odd
    neighbors: np.ndarray = np.empty((rows, cols, 6), dtype=np.int32)
    neighbors[..., NORTH] = _shifted(index, np.full(cols, -1), 0)
    neighbors[..., SOUTH] = _shifted(index, np.full(cols, 1), 0)
    # the row offset of a diagonal step depends on the parity of the source column
    neighbors[..., NORTHEAST] = _shifted(index, north_diagonal, 1)
    neighbors[..., SOUTHEAST] = _shifted(index, south_diagonal, 1)
    neighbors[..., NORTHWEST] = _shifted(index, north_diagonal, -1)
    neighbors[..., SOUTHWEST] = _shifted(index, south_diagonal, -1)
    neighbors = neighbors.reshape(rows * cols, 6)
    enabled = enabled_from_mask(mask, (rows, cols), rows * cols)
    apply_mask(neighbors, enabled)
    return Grid("hex", (rows, cols), neighbors, OPPOSITE.copy(), DIRECTIONS, enabled)


def enabled_from_mask(mask, shape: tuple[int, ...], size: int) -> np.ndarray:
    """The ``enabled`` array of a grid of ``size`` cells from ``mask`` (None = all), checking its shape.

    >>> enabled_from_mask([[True, False]], (1, 2), 2).tolist()
    [True, False]
    """
    if mask is None:
        return np.ones(size, dtype=bool)
    mask = np.asarray(mask, dtype=bool)
    if mask.shape != shape:
        raise BlockmazeError(f"mask shape {mask.shape} does not match the grid's {shape}")
    return mask.ravel().copy()


def row_east(grid: Grid) -> np.ndarray:
    """Per cell, the direction leading to the same row's next column: south-east from even
    columns, north-east from odd ones (the neighbour there may be -1 at the east edge).

    >>> g = hex_grid(2, 3)
    >>> [g.directions[d] for d in row_east(g)[:3]]
    ['southeast', 'northeast', 'southeast']
    >>> g.neighbors[[0, 1], row_east(g)[:2]].tolist()
    [1, 2]
    """
    cols = grid.shape[1]
    return np.where(np.arange(grid.size) % cols % 2 == 0, SOUTHEAST, NORTHEAST).astype(np.int64)


# vertices from the west corner, clockwise on screen; edge j joins vertex j and j + 1
_HEXAGON = np.array([[-1.0, 0.0], [-0.5, -HEIGHT / 2], [0.5, -HEIGHT / 2],
                     [1.0, 0.0], [0.5, HEIGHT / 2], [-0.5, HEIGHT / 2]])
_HEX_SIDES = np.array([NORTHWEST, NORTH, NORTHEAST, SOUTHEAST, SOUTH, SOUTHWEST])


def hex_centres(rows: int, cols: int) -> np.ndarray:
    """The ``(n, 2)`` centre of every cell."""
    r, c = rect_cell_origins(rows, cols)
    return np.stack([1.0 + 1.5 * c, HEIGHT * (r + 0.5) + (c % 2) * HEIGHT / 2], axis=1)


def hex_shapes(grid: Grid) -> CellShapes:
    """Hexagons of unit side (see the module docstring)."""
    rows, cols = grid.shape
    points = hex_centres(rows, cols)[:, None, :] + _HEXAGON[None]
    return regular(points, np.broadcast_to(_HEX_SIDES, (rows * cols, 6)).copy())


register_kind("hex", hex_grid)
register_shapes("hex", hex_shapes)
