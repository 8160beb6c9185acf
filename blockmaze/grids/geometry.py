"""Cell polygons in plane coordinates, for every grid kind: geometry beside the topology.

Coordinates: x to the right, y DOWN, row 0 (north) at the top, the grid's top-left corner at the
origin. Square cells are 1 x 1. Each kind's module documents its own unit (hex: unit side;
triangle: unit side; upsilon: cell centres on the unit lattice; polar: unit ring height; layered:
levels side by side).

:func:`cell_shapes` gives every cell's polygon as arrays:

- ``points``: float64 ``(n, m, 2)``, the vertices of cell ``i`` in ``points[i, :counts[i]]``,
  clockwise as seen on screen (a positive shoelace area in these y-down coordinates); the rest of
  the row is NaN padding.
- ``sides``: int ``(n, m)``, the direction (index into ``grid.directions``) of the edge from
  vertex ``j`` to vertex ``j + 1`` (the last edge closes the polygon back to vertex 0); -1 for
  padding. An edge's direction is the side of the cell it lies on: a wall between cell ``i`` and
  ``grid.neighbors[i, sides[i, j]]``, or an outer wall where there is no neighbour. A side may be
  several edges (polar arcs are approximated by several points). Directions that are not sides in
  the plane (``up``/``down`` of layered grids) appear in no edge.
- ``counts``: int ``(n,)``, the number of vertices of each cell.

Two cells are neighbours in the plane iff their polygons share an edge of positive length, and
polygons do not overlap (both are tested for every kind); a surface's net is cut along its
seams, where neighbours lie apart (``seams``). Disabled cells keep their polygons.

Each kind registers its shape function with :func:`register_shapes`; the square kind's is here.

Example
-------
>>> from blockmaze.grids import square_grid
>>> shapes = cell_shapes(square_grid(1, 2))
>>> shapes.polygon(1).tolist()
[[1.0, 0.0], [2.0, 0.0], [2.0, 1.0], [1.0, 1.0]]
>>> [square_grid(1, 1).directions[d] for d in shapes.sides[1]]
['north', 'east', 'south', 'west']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..errors import BlockmazeError
from .base import Grid


@dataclass(frozen=True, eq=False)
class CellShapes:
    """Every cell's polygon: ``points (n, m, 2)`` NaN-padded, ``sides (n, m)``, ``counts (n,)``;
    ``seams (n, m)``, for a surface's net: True on an edge whose neighbour across lies
    elsewhere in the plane (the net is cut there), None where every neighbour shares its edge."""

    points: np.ndarray
    sides: np.ndarray
    counts: np.ndarray
    seams: np.ndarray | None = None

    def polygon(self, cell: int) -> np.ndarray:
        """The ``(counts[cell], 2)`` vertices of one cell."""
        return self.points[cell, : self.counts[cell]]

    def polygons(self) -> list[np.ndarray]:
        """Every cell's ``(m_i, 2)`` vertex array, in cell order."""
        return [self.points[i, :c] for i, c in enumerate(self.counts.tolist())]

    def bounds(self) -> tuple[float, float, float, float]:
        """``(xmin, ymin, xmax, ymax)`` over all cells."""
        return (float(np.nanmin(self.points[..., 0])), float(np.nanmin(self.points[..., 1])),
                float(np.nanmax(self.points[..., 0])), float(np.nanmax(self.points[..., 1])))

    def areas(self) -> np.ndarray:
        """Each cell's area (shoelace; positive, the vertices being clockwise on screen)."""
        x, y = self.points[..., 0], self.points[..., 1]
        x1 = _next_vertex(x, self.counts)
        y1 = _next_vertex(y, self.counts)
        return 0.5 * np.nansum(x * y1 - x1 * y, axis=1)

    def centroids(self) -> np.ndarray:
        """Each cell's area centroid, ``(n, 2)``."""
        x, y = self.points[..., 0], self.points[..., 1]
        x1 = _next_vertex(x, self.counts)
        y1 = _next_vertex(y, self.counts)
        cross = x * y1 - x1 * y
        area = 0.5 * np.nansum(cross, axis=1)
        cx = np.nansum((x + x1) * cross, axis=1) / (6 * area)
        cy = np.nansum((y + y1) * cross, axis=1) / (6 * area)
        return np.stack([cx, cy], axis=1)


def _next_vertex(values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``values`` shifted so column j holds vertex j + 1 of each row (wrapping at ``counts``)."""
    shifted = np.roll(values, -1, axis=1)
    rows = np.arange(values.shape[0])
    shifted[rows, counts - 1] = values[:, 0]
    return shifted


ShapeFunction = Callable[[Grid], CellShapes]
_SHAPES: dict[str, ShapeFunction] = {}


def register_shapes(kind: str, function: ShapeFunction) -> None:
    """Make ``function(grid) -> CellShapes`` the polygon source for grids of ``kind``."""
    _SHAPES[kind] = function


_OUTER_SIDES: dict[str, Callable[[Grid], np.ndarray]] = {}


def register_outer_sides(kind: str, function: Callable[[Grid], np.ndarray]) -> None:
    """Make ``function(grid) -> bool[n, k]`` the :func:`outer_sides` of ``kind``'s grids, for a
    kind whose sides are known from its table rather than from polygons (the surfaces')."""
    _OUTER_SIDES[kind] = function


def cell_shapes(grid: Grid) -> CellShapes:
    """Every cell's polygon and the direction of each of its edges (see the module docstring).

    >>> from blockmaze.grids import square_grid
    >>> cell_shapes(square_grid(2, 3)).points.shape
    (6, 4, 2)
    """
    try:
        function = _SHAPES[grid.kind]
    except KeyError:
        raise BlockmazeError(f"grid kind {grid.kind!r} has no cell geometry") from None
    return function(grid)


def polygons(grid: Grid) -> list[np.ndarray]:
    """Every cell's polygon as an ``(m_i, 2)`` array of (x, y) vertices, clockwise on screen.

    >>> from blockmaze.grids import square_grid
    >>> polygons(square_grid(1, 1))[0].tolist()
    [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
    """
    return cell_shapes(grid).polygons()


def outer_sides(grid: Grid) -> np.ndarray:
    """``bool[n, k]``: True where enabled cell ``i`` has a side in direction ``d`` on the grid's
    outer boundary (a polygon edge with no neighbour across it even without the mask).

    Unlike ``unmasked.neighbors < 0`` this skips directions a cell's shape lacks (an upsilon
    square's diagonals, a polar cell's second outward or inward side) and the up/down of layered
    grids; walls facing a masked cell are not outer sides either.

    >>> from blockmaze.grids import GRID_KINDS
    >>> g = GRID_KINDS["upsilon"](3, 3)
    >>> bool(outer_sides(g)[4].any()), outer_sides(g)[1].nonzero()[0].tolist()  # centre; north square
    (False, [0])
    """
    from . import GRID_KINDS

    if grid.kind in _OUTER_SIDES:  # a surface's, from its table (it has no polygons)
        return _OUTER_SIDES[grid.kind](grid)
    shapes = cell_shapes(grid)
    has_side = np.zeros((grid.size, grid.degree), dtype=bool)
    rows, cols = np.nonzero(shapes.sides >= 0)
    has_side[rows, shapes.sides[rows, cols]] = True
    unmasked = GRID_KINDS[grid.kind](*grid.shape) if grid.kind in GRID_KINDS else grid
    return has_side & (unmasked.neighbors < 0) & grid.enabled[:, None]


def padded(polys: list[np.ndarray], sides: list[np.ndarray]) -> CellShapes:
    """Build CellShapes from per-cell vertex and side arrays of varying length."""
    counts = np.array([len(p) for p in polys], dtype=np.int64)
    m = int(counts.max()) if counts.size else 0
    points = np.full((len(polys), m, 2), np.nan)
    side = np.full((len(polys), m), -1, dtype=np.int64)
    for i, (p, s) in enumerate(zip(polys, sides, strict=True)):
        points[i, : len(p)] = p
        side[i, : len(s)] = s
    return CellShapes(points, side, counts)


def regular(points: np.ndarray, sides: np.ndarray) -> CellShapes:
    """CellShapes for cells that all have the same vertex count: ``points (n, m, 2)``, ``sides (n, m)``."""
    n, m = sides.shape
    return CellShapes(points.astype(np.float64), sides.astype(np.int64), np.full(n, m, dtype=np.int64))


def rect_cell_origins(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """Row and column index of every cell of a rows x cols array, flattened row-major."""
    r, c = np.divmod(np.arange(rows * cols), cols)
    return r, c


# the square kind's geometry (square.py predates this module)
_UNIT_SQUARE = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float64)
_SQUARE_SIDES = np.array([0, 1, 2, 3])  # north, east, south, west


def square_shapes(grid: Grid) -> CellShapes:
    """Unit squares; cell (r, c) covers ``[c, c + 1] x [r, r + 1]``."""
    rows, cols = grid.shape
    r, c = rect_cell_origins(rows, cols)
    origin = np.stack([c, r], axis=1).astype(np.float64)
    points = origin[:, None, :] + _UNIT_SQUARE[None]
    sides = np.broadcast_to(_SQUARE_SIDES, (rows * cols, 4))
    return regular(points, np.array(sides))


register_shapes("square", square_shapes)
