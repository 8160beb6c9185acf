"""The polar ("theta") grid: concentric rings of cells, subdivided outwards so cells stay roughly square.

Shape ``(rings,)``. Ring 0, the centre, is a disc cut into ``CENTRE_CELLS`` (4) wedges that meet
at the centre point (neighbouring each other, not the wedge opposite: that one touches only at a
point). Ring r >= 1 lies between radius r and r + 1 (ring height 1). Each ring has as many cells
as the one inside it, or twice as many when the cells would otherwise be more than twice as wide
as high at the ring's middle radius: ``count[r] = 2 * count[r - 1]`` if
``2 pi (r + 1/2) / count[r - 1] > 2``, else ``count[r - 1]``. So a cell has one or two outward
neighbours and exactly one inward neighbour (none in ring 0).

Cells are numbered ring by ring from the centre; within a ring, clockwise (as seen on screen,
y down) from north: cell j of a ring of n cells spans the angles ``[2 pi j / n, 2 pi (j + 1) / n]``
measured clockwise from north. :func:`ring_counts` and :func:`ring_offsets` give the layout.

Directions ``cw, ccw, inward_a, inward_b, outward_a, outward_b``, with
``opposite = [ccw, cw, outward_a, outward_b, inward_a, inward_b]``. When a ring doubles, parent j
has children 2j (``outward_a``, the counter-clockwise half of its outer side) and 2j + 1
(``outward_b``); child 2j reaches its parent by ``inward_a`` and child 2j + 1 by ``inward_b``.
When it does not double, parent j's single child j is its ``outward_a`` and reaches it by
``inward_a``. So ``neighbors[neighbors[i, d], opposite[d]] == i`` holds for every pair.
Degrees: cw and ccw, one inward (not in ring 0), one or two outward (not in the outermost ring):
2 to 4 in ring 0, 3 to 5 elsewhere, 4 or 5 in the rings between.

The mask is a per-cell bool array of ``polar_cell_count(rings)`` cells in the numbering above
(not a 2-D array: rings have different lengths); :mod:`blockmaze.mazes.masks` builds one from text or
an image by sampling at each cell's centroid.

Geometry: the centre is at ``(rings, rings)``, so the picture fits ``[0, 2 rings]`` in x and y;
arcs are approximated by points at most about 0.5 apart (the same points on both sides of a
boundary, so neighbours share whole edges).
"""

from __future__ import annotations

import numpy as np

from ..errors import BlockmazeError
from ..support.memory import ensure_memory
from . import register_kind
from .base import Grid, apply_mask, check_cell_count
from .geometry import CellShapes, register_shapes
from .hex import enabled_from_mask

DIRECTIONS = ("cw", "ccw", "inward_a", "inward_b", "outward_a", "outward_b")
OPPOSITE = np.array([1, 0, 4, 5, 2, 3], dtype=np.int64)
CW, CCW, INWARD_A, INWARD_B, OUTWARD_A, OUTWARD_B = range(6)

CENTRE_CELLS = 4
BYTES_PER_CELL = 6 * 4 + 6 + 4 + 2
MAX_SEGMENT = 0.5  # longest arc step in the polygons


def ring_counts(rings: int) -> np.ndarray:
    """The number of cells in each ring.

    >>> ring_counts(6).tolist()
    [4, 8, 8, 16, 16, 32]
    """
    counts = np.empty(max(int(rings), 0), dtype=np.int64)
    if rings > 0:
        counts[0] = CENTRE_CELLS
    for r in range(1, int(rings)):
        previous = counts[r - 1]
        counts[r] = 2 * previous if 2 * np.pi * (r + 0.5) / previous > 2.0 else previous
    return counts


def ring_offsets(rings: int) -> np.ndarray:
    """The index of each ring's first cell, and the total cell count last (``rings + 1`` values).

    >>> ring_offsets(3).tolist()
    [0, 4, 12, 20]
    """
    return np.concatenate([[0], np.cumsum(ring_counts(rings))]).astype(np.int64)


def polar_cell_count(rings: int) -> int:
    """The number of cells of a polar grid with ``rings`` rings.

    >>> polar_cell_count(3)
    20
    """
    return int(ring_offsets(rings)[-1])


def _check_rings(rings: int) -> int:
    rings = int(rings)
    if rings < 1:
        raise BlockmazeError(f"a polar grid of {rings} rings has no cells; every dimension must be >= 1")
    if rings > 100_000:
        raise BlockmazeError(f"a polar grid of {rings} rings is too large; at most 100000 rings")
    return rings


def polar_grid(rings: int, mask: np.ndarray | None = None) -> Grid:
    """A disc of ``rings`` rings of cells (see the module docstring for the layout).

    ``mask`` is an optional bool array of ``polar_cell_count(rings)`` cells, True where enabled.

    Example
    -------
    >>> g = polar_grid(2)
    >>> g.size
    12
    >>> g.neighbors[0].tolist()   # a centre wedge: cw, ccw, no inward, two outward children
    [1, 3, -1, -1, 4, 5]
    >>> g.neighbors[5].tolist()   # its second child reaches it by inward_b
    [6, 4, -1, 0, -1, -1]
    """
    rings = _check_rings(rings)
    counts, offsets = ring_counts(rings), ring_offsets(rings)
    size = int(offsets[-1])
    what = f"a polar grid of {rings} rings"
    check_cell_count(size, what)
    ensure_memory(size * BYTES_PER_CELL, what)
    neighbors = np.full((size, 6), -1, dtype=np.int32)
    link_rings(neighbors, counts, offsets)
    enabled = enabled_from_mask(mask, (size,), size)
    apply_mask(neighbors, enabled)
    return Grid("polar", (rings,), neighbors, OPPOSITE.copy(), DIRECTIONS, enabled)


def link_rings(neighbors: np.ndarray, counts: np.ndarray, offsets: np.ndarray,
               first: int = 0) -> None:
    """Fill the six directions of rings of ``counts`` cells (each ring as many as the one
    inside it, or twice as many) into ``neighbors``, its rows the rings' cells from ``offsets``
    on, their numbers counted from ``first`` (the polar grid's; each hemisphere's of a sphere).

    >>> table = np.full((12, 6), -1, dtype=np.int32)
    >>> link_rings(table, np.array([4, 8]), np.array([0, 4, 12]), first=100)
    >>> table[0].tolist()
    [101, 103, -1, -1, 104, 105]
    """
    for r in range(len(counts)):
        n, start = int(counts[r]), int(offsets[r])
        j = np.arange(n)
        rows = start + j
        neighbors[rows, CW] = first + start + (j + 1) % n
        neighbors[rows, CCW] = first + start + (j - 1) % n
        if r + 1 < len(counts):
            outer = int(offsets[r + 1])
            if counts[r + 1] == 2 * n:
                neighbors[rows, OUTWARD_A] = first + outer + 2 * j
                neighbors[rows, OUTWARD_B] = first + outer + 2 * j + 1
                neighbors[outer + 2 * j, INWARD_A] = first + rows
                neighbors[outer + 2 * j + 1, INWARD_B] = first + rows
            else:
                neighbors[rows, OUTWARD_A] = first + outer + j
                neighbors[outer + j, INWARD_A] = first + rows


def _arc_steps(rings: int, counts: np.ndarray) -> np.ndarray:
    """Angular steps around each boundary radius b = 1..rings (index b); a multiple of the cells outside it."""
    steps = np.zeros(rings + 1, dtype=np.int64)
    for b in range(1, rings + 1):
        outside = counts[b] if b < rings else counts[b - 1]
        per_cell = max(1, int(np.ceil(2 * np.pi * b / outside / MAX_SEGMENT)))
        steps[b] = outside * per_cell
    return steps


def _arc(centre: float, centre_y: float, radius: int, k: np.ndarray, steps: int) -> np.ndarray:
    theta = 2 * np.pi * k / steps
    return np.stack([centre + radius * np.sin(theta), centre_y - radius * np.cos(theta)],
                    axis=-1)


def polar_shapes(grid: Grid) -> CellShapes:
    """Ring sectors, arcs approximated by points (see the module docstring); NaN-padded."""
    rings = grid.shape[0]
    return ring_shapes(ring_counts(rings), float(rings), float(rings))


def ring_shapes(counts: np.ndarray, centre: float, centre_y: float | None = None) -> CellShapes:
    """The sectors of rings of ``counts`` cells round the point (``centre``, ``centre_y``, by
    default ``centre``), ring r between radius r and r + 1 (the polar grid's; each
    hemisphere's of a sphere's net).

    >>> ring_shapes(np.array([4, 8]), 2.0, 5.0).bounds()   # two rings round (2, 5)
    (0.0, 3.0, 4.0, 7.0)
    """
    rings = len(counts)
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    size = int(offsets[-1])
    steps = _arc_steps(rings, counts)
    cy = centre if centre_y is None else centre_y
    ring_points, ring_sides = [], []
    for r in range(rings):
        n = int(counts[r])
        j = np.arange(n)[:, None]
        out_steps = int(steps[r + 1])
        out_per = out_steps // n
        outer = _arc(centre, cy, r + 1, j * out_per + np.arange(out_per + 1)[None, :], out_steps)
        out_side = np.full((n, out_per), OUTWARD_A)
        if r + 1 < rings and counts[r + 1] == 2 * n:
            out_side[:, out_per // 2:] = OUTWARD_B
        if r == 0:
            inner = np.tile(np.array([centre, cy]), (n, 1, 1))
            inner_side = np.empty((n, 0), dtype=np.int64)
        else:
            in_steps = int(steps[r])
            in_per = in_steps // n
            inner = _arc(centre, cy, r, (j + 1) * in_per - np.arange(in_per + 1)[None, :],
                         in_steps)
            second_child = (j[:, 0] % 2 == 1) & (counts[r] == 2 * counts[r - 1])
            inner_side = np.repeat(np.where(second_child, INWARD_B, INWARD_A)[:, None], in_per, axis=1)
        ring_points.append(np.concatenate([outer, inner], axis=1))
        ring_sides.append(np.concatenate(
            [out_side, np.full((n, 1), CW), inner_side, np.full((n, 1), CCW)], axis=1))
    m = max(p.shape[1] for p in ring_points)
    points = np.full((size, m, 2), np.nan)
    sides = np.full((size, m), -1, dtype=np.int64)
    vertex_counts = np.empty(size, dtype=np.int64)
    for r, (p, sd) in enumerate(zip(ring_points, ring_sides, strict=True)):
        cells = slice(int(offsets[r]), int(offsets[r + 1]))
        points[cells, : p.shape[1]] = p
        sides[cells, : sd.shape[1]] = sd
        vertex_counts[cells] = p.shape[1]
    return CellShapes(points, sides, vertex_counts)


register_kind("polar", polar_grid)
register_shapes("polar", polar_shapes)
