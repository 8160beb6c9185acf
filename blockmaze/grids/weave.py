"""The weave grid: a square grid whose crossing cells a passage may dive under.

A crossing cell keeps only the two neighbours of its over-passage (east and west, or north and
south), so its passage runs straight across; the cells on its other two sides become each
other's neighbours, through the under-passage. No cell is added: the jump takes the direction
slot that pointed at the crossing (``neighbors[north of c, south] == south of c``), so the table
keeps the square grid's four directions, every algorithm runs on it unchanged, and a perfect
maze is still a spanning tree of the cells. The crossing is used when the maze links the two
cells under it, and is then drawn and built as a passage under a bridge.

``crossings`` (int8 per cell): 0 none, :data:`OVER_EAST_WEST` or :data:`OVER_NORTH_SOUTH` (the
direction of the passage on top). Crossings lie inside the grid with their eight surrounding
cells enabled and no other crossing among them; then every way the square grid had between two
cells still exists (a turn through a crossing goes round by the diagonal cell), so the cells
stay one connected region.

Example
-------
>>> import numpy as np
>>> g = weave_grid(3, 3, crossings=np.array([0, 0, 0, 0, 1, 0, 0, 0, 0], np.int8))
>>> g.neighbors[4].tolist(), g.neighbors[1].tolist()   # crossing: east and west only; 1 jumps to 7
([-1, 5, -1, 3], [-1, 2, 7, 0])
>>> g
Grid(weave, 3x3, 1 crossings)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import BlockmazeError
from ..support.kernels import kernel
from . import register_kind
from .base import Grid
from .geometry import register_shapes, square_shapes
from .square import EAST, NORTH, SOUTH, WEST, square_grid

NONE, OVER_EAST_WEST, OVER_NORTH_SOUTH = 0, 1, 2
OVER_NAMES = {OVER_EAST_WEST: "east-west", OVER_NORTH_SOUTH: "north-south"}


@dataclass(frozen=True, eq=False, repr=False)
class WeaveGrid(Grid):
    """A :class:`Grid` of kind ``weave`` with its ``crossings`` (see the module docstring)."""

    crossings: np.ndarray

    def __post_init__(self) -> None:
        super().__post_init__()
        self.crossings.setflags(write=False)

    def __eq__(self, other: object) -> bool:
        same = Grid.__eq__(self, other)
        if same is not True:
            return same
        crossings = getattr(other, "crossings", None)
        return crossings is not None and np.array_equal(self.crossings, crossings)

    def __hash__(self) -> int:
        return hash((Grid.__hash__(self), self.crossings.tobytes()))

    def __repr__(self) -> str:
        return f"{Grid.__repr__(self)[:-1]}, {np.count_nonzero(self.crossings)} crossings)"

    def under_ends(self) -> np.ndarray:
        """int (m, 3): per crossing, the crossing cell and the two cells its under-passage joins
        (north then south, or west then east)."""
        cols = self.shape[1]
        cells = np.flatnonzero(self.crossings)
        step = np.where(self.crossings[cells] == OVER_EAST_WEST, cols, 1)
        return np.stack([cells, cells - step, cells + step], axis=1)

    def used_crossings(self, links: np.ndarray) -> np.ndarray:
        """The :meth:`under_ends` rows whose under-passage ``links`` open (a maze's crossings)."""
        ends = self.under_ends()
        direction = np.where(self.crossings[ends[:, 0]] == OVER_EAST_WEST, SOUTH, EAST)
        return ends[links[ends[:, 1], direction]]


def weave_of(grid: Grid) -> WeaveGrid:
    """``grid`` as the :class:`WeaveGrid` it is, for the code that reads its crossings; another
    kind of grid is refused.

    >>> weave_of(weave_grid(3, 3)).kind
    'weave'
    >>> weave_of(square_grid(3, 3))
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: this needs a weave maze, not a square one
    """
    if not isinstance(grid, WeaveGrid):
        raise BlockmazeError(f"this needs a weave maze, not a {grid.kind} one")
    return grid


def weave_grid(rows: int, cols: int, mask: np.ndarray | None = None,
               crossings: np.ndarray | None = None) -> WeaveGrid:
    """A ``rows`` x ``cols`` square grid with ``crossings`` (int8 per cell; None = none yet).

    Cells are numbered as on the square grid. Crossings must follow the rules of the module
    docstring (:func:`place_crossings` draws such a set).
    """
    square = square_grid(rows, cols, mask)
    if crossings is None:
        crossings = np.zeros(square.size, np.int8)
    crossings = np.asarray(crossings).reshape(-1)
    if crossings.size != square.size or ((crossings < 0) | (crossings > 2)).any():
        raise BlockmazeError(f"crossings must be {square.size} values of 0, 1 or 2")
    problem = _crossing_problem(crossings.reshape(rows, cols), square.enabled.reshape(rows, cols))
    if problem:
        raise BlockmazeError(f"crossing cell {problem - 1} is on the edge, beside a masked cell "
                             "or next to another crossing")
    return _woven(square, crossings.astype(np.int8))


def _woven(square: Grid, crossings: np.ndarray) -> WeaveGrid:
    """The weave grid of a square grid's table and valid ``crossings`` (int8, owned)."""
    neighbors = weave_table(square.neighbors, crossings)
    return WeaveGrid("weave", square.shape, neighbors, square.opposite.copy(), square.directions,
                     square.enabled.copy(), crossings)


@kernel
def weave_table(neighbors, crossings):
    """A copy of a square grid's table with each crossing's under-axis neighbours joined past it."""
    out = neighbors.copy()
    for cell in range(crossings.size):
        kind = crossings[cell]
        if kind == 0:
            continue
        a, b = (NORTH, SOUTH) if kind == OVER_EAST_WEST else (WEST, EAST)
        before, after = neighbors[cell, a], neighbors[cell, b]
        out[before, b] = after
        out[after, a] = before
        out[cell, a] = -1
        out[cell, b] = -1
    return out


def _crossing_problem(crossings: np.ndarray, enabled: np.ndarray) -> int:
    """1 + the first crossing that breaks the rules, or 0."""
    rows, cols = crossings.shape
    at = crossings != 0
    bad = at.copy()
    bad[1:-1, 1:-1] = False
    inner = at[1:-1, 1:-1]
    for dz in (-1, 0, 1):
        for dx in (-1, 0, 1):
            near = (slice(1 + dz, rows - 1 + dz), slice(1 + dx, cols - 1 + dx))
            bad[1:-1, 1:-1] |= inner & ~enabled[near]
            if (dz, dx) != (0, 0):
                bad[1:-1, 1:-1] |= inner & at[near]
    cells = np.flatnonzero(bad)
    return int(cells[0]) + 1 if cells.size else 0


@kernel
def crossing_kernel(enabled, rows, cols, chance, rng):
    """Crossings, row by row: an interior cell whose 3x3 block is enabled and holds no crossing
    yet becomes one with probability ``chance`` (one draw), its over-passage drawn at random."""
    crossings = np.zeros(rows * cols, dtype=np.int8)
    for r in range(1, rows - 1):
        for c in range(1, cols - 1):
            i = r * cols + c
            if rng.random() >= chance:
                continue
            # the cells decided before: north-west, north, north-east, west
            free = (crossings[i - cols - 1] == 0 and crossings[i - cols] == 0
                    and crossings[i - cols + 1] == 0 and crossings[i - 1] == 0)
            for dz in range(-1, 2):
                for dx in range(-1, 2):
                    free = free and enabled[i + dz * cols + dx]
            if free:
                crossings[i] = 1 + int(rng.random() * 2)
    return crossings


def place_crossings(grid: Grid, chance: float, rng: np.random.Generator) -> WeaveGrid:
    """``grid`` (square or weave, masked or not) as a weave grid with crossings drawn at
    ``chance`` per interior cell (0 draws nothing: the plain square topology).

    >>> g = place_crossings(square_grid(20, 20), 1.0, np.random.default_rng(1))
    >>> int((g.crossings > 0).sum())   # at chance 1, one cell in four
    81
    """
    if isinstance(chance, bool) or not isinstance(chance, (int, float)) or not 0 <= chance <= 1:
        raise BlockmazeError(f"--weave must be a number from 0 to 1, got {chance!r}")
    rows, cols = grid.shape
    if grid.kind != "square" or chance == 0:
        grid = square_grid(rows, cols, grid.enabled.reshape(rows, cols))
    if chance == 0:
        return _woven(grid, np.zeros(grid.size, np.int8))
    return _woven(grid, crossing_kernel(grid.enabled, rows, cols, float(chance), rng))


register_kind("weave", weave_grid)
register_shapes("weave", square_shapes)
