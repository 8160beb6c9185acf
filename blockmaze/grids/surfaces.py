"""Grids on closed and wrapped surfaces: a cylinder, a torus, a Möbius strip, a cube, a sphere.

Each is a neighbour table like the flat kinds', so every algorithm that reads only the table
carves it, and ``neighbors[neighbors[i, d], opposite[d]] == i`` holds across every seam
(tests/test_surfaces.py checks it on every kind and size tried).

- **cylinder** ``(rows, cols)``: the square grid with column ``cols - 1``'s east side joined
  to column 0's west side.
- **torus** ``(rows, cols)``: the cylinder with row 0's north side joined to the last row's
  south side too.
- **moebius** ``(rows, cols)``: the cylinder's seam with a flip: row ``r`` of the last column
  meets row ``rows - 1 - r`` of the first. Its seams keep east and west, so the square grid's
  four directions still pair.
- **cube** ``(n,)``: six n x n square faces, cell ``(face * n + row) * n + col``. Each face has
  a frame (its north and east as directions in space) chosen so that eight of its twelve edges
  join a north to a south or an east to a west; the other four join north to north, east to
  east, or south to west, and go by four more directions of their own: ``north:north`` and
  ``east:east`` (each its own opposite), ``south:west`` and ``west:south`` (each other's). A
  direction ``A:B`` leaves by the cell's side A and arrives by the other cell's side B.
- **sphere** ``(rings,)``: latitude rings from the north pole to the south pole (an even
  number). Each hemisphere is a polar grid's rings (the cap of ``CENTRE_CELLS`` wedges at the
  pole, a ring doubling its cells when they would be more than twice as wide as high), but the
  width of a ring is its latitude's circumference (``4 h sin(colatitude)`` ring heights for h
  rings a hemisphere), as the sphere grid of *Mazes for Programmers* splits its rows. The
  polar grid's six directions (inward: towards the cell's own pole), and ``across`` (its own
  opposite) over the equator, where both hemispheres' outer rings have as many cells.

Walls, seams and wraps need at least three cells round every loop (two would join one pair
of cells twice): rows and columns that wrap are at least 3.

>>> cylinder_grid(2, 3).neighbors[2].tolist()   # north, east (round to column 0), south, west
[-1, 0, 5, 1]
>>> moebius_grid(2, 3).neighbors[2].tolist()    # east of row 0's last cell: row 1's first
[-1, 3, 5, 1]
>>> g = cube_grid(2)
>>> g.size, g.degree, g.directions[4:]
(24, 8, ('north:north', 'east:east', 'south:west', 'west:south'))
>>> sphere_grid(8).size, sphere_ring_counts(8).tolist()
(56, [4, 8, 8, 8, 8, 8, 8, 4])
"""

from __future__ import annotations

import numpy as np

from ..errors import BlockmazeError
from ..support.memory import ensure_memory
from . import GRID_KINDS, register_kind
from .base import Grid, apply_mask, check_cell_count
from .geometry import CellShapes, register_outer_sides, register_shapes, square_shapes
from .hex import enabled_from_mask
from .polar import CENTRE_CELLS, link_rings, ring_shapes
from .polar import DIRECTIONS as POLAR_DIRECTIONS
from .polar import OPPOSITE as POLAR_OPPOSITE
from .square import BYTES_PER_CELL, EAST, NORTH, SOUTH, WEST, square_grid

LEAST_ROUND = 3  # cells round a wrapped loop (two would join one pair of cells twice)
MAX_SIDE = 20_000  # a cube's face side, a sphere's rings


def _wrapped(kind: str, rows: int, cols: int, mask, *, across: bool, down: bool,
             flip: bool) -> Grid:
    """The square grid of ``rows`` x ``cols`` with its east-west seam (``across``, its rows
    reversed with ``flip``) and its north-south seam (``down``) joined."""
    rows, cols = int(rows), int(cols)
    for wraps, count, name in ((across, cols, "columns"), (down, rows, "rows")):
        if wraps and count < LEAST_ROUND:
            raise BlockmazeError(f"a {kind} grid needs at least {LEAST_ROUND} {name} (it wraps "
                                 f"round them), got {count}")
    flat = square_grid(rows, cols)
    neighbors = flat.neighbors.copy()
    r = np.arange(rows)
    if across:
        other = rows - 1 - r if flip else r
        neighbors[r * cols + cols - 1, EAST] = other * cols
        neighbors[other * cols, WEST] = r * cols + cols - 1
    if down:
        c = np.arange(cols)
        neighbors[c, NORTH] = (rows - 1) * cols + c
        neighbors[(rows - 1) * cols + c, SOUTH] = c
    enabled = enabled_from_mask(mask, (rows, cols), rows * cols)
    apply_mask(neighbors, enabled)
    return Grid(kind, (rows, cols), neighbors, flat.opposite.copy(), flat.directions, enabled)


def cylinder_grid(rows: int, cols: int, mask: np.ndarray | None = None) -> Grid:
    """A ``rows`` x ``cols`` square grid wrapped east to west (a mask is ``(rows, cols)``).

    >>> cylinder_grid(3, 4)
    Grid(cylinder, 3x4)
    """
    return _wrapped("cylinder", rows, cols, mask, across=True, down=False, flip=False)


def torus_grid(rows: int, cols: int, mask: np.ndarray | None = None) -> Grid:
    """A ``rows`` x ``cols`` square grid wrapped east to west and north to south.

    >>> torus_grid(3, 3).neighbors[0].tolist()
    [6, 1, 3, 2]
    """
    return _wrapped("torus", rows, cols, mask, across=True, down=True, flip=False)


def moebius_grid(rows: int, cols: int, mask: np.ndarray | None = None) -> Grid:
    """A ``rows`` x ``cols`` square grid whose east-west seam joins row r to row rows-1-r.

    >>> moebius_grid(3, 3).neighbors[0].tolist()   # west of row 0's first cell: row 2's last
    [-1, 1, 3, 8]
    """
    return _wrapped("moebius", rows, cols, mask, across=True, down=False, flip=True)


# --- the cube

FACES = np.array([(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)])
# each face's north and east in space: a right-handed frame seen from outside (east x north =
# the face's outward normal), chosen so that only four kinds of seam need directions of their own
FRAMES = np.array([
    [(0, 1, 0), (0, 0, -1)], [(0, 0, 1), (0, -1, 0)], [(1, 0, 0), (0, 0, 1)],
    [(0, 0, -1), (-1, 0, 0)], [(-1, 0, 0), (0, 1, 0)], [(0, -1, 0), (1, 0, 0)]])
SIDES = ("north", "east", "south", "west")
CUBE_DIRECTIONS = (*SIDES, "north:north", "east:east", "south:west", "west:south")
CUBE_OPPOSITE = np.array([2, 3, 0, 1, 4, 5, 7, 6], dtype=np.int64)


def side_vectors(face: int) -> np.ndarray:
    """The four sides of ``face``'s cells (north, east, south, west) as vectors in space.

    >>> side_vectors(4).tolist()
    [[-1, 0, 0], [0, 1, 0], [1, 0, 0], [0, -1, 0]]
    """
    north, east = FRAMES[face]
    return np.array([north, east, -north, -east])


def cube_centres(n: int) -> np.ndarray:
    """Each cell's centre on the cube ``[-1, 1]^3``, ``(6 n n, 3)``; row 0 along the face's
    north edge, column 0 along its west edge.

    >>> cube_centres(1)[:2].tolist()
    [[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0]]
    """
    t = (2 * np.arange(n) + 1) / n - 1  # -1 .. 1 across a face, cell centres
    north, east = FRAMES[:, 0, None, None, :], FRAMES[:, 1, None, None, :]
    centres = (FACES[:, None, None, :] + north * -t[None, :, None, None]
               + east * t[None, None, :, None])
    return centres.reshape(-1, 3).astype(float)


def _seam_direction(leaving: int, arriving: int) -> int:
    """The direction of a step that leaves by side ``leaving`` and arrives by ``arriving``."""
    if CUBE_OPPOSITE[leaving] == arriving:
        return leaving
    return CUBE_DIRECTIONS.index(f"{SIDES[leaving]}:{SIDES[arriving]}")


def cube_grid(n: int, mask: np.ndarray | None = None) -> Grid:
    """The surface of a cube, six ``n`` x ``n`` faces (a mask is one bool a cell, face by face
    and row by row).

    Each cell on a face's edge reaches the cell across it: one step out of its face over the
    edge and one step into the next face, found by the cells' centres in space.

    >>> g = cube_grid(3)
    >>> g.enabled_count, int((g.neighbors >= 0).sum(axis=1).min())
    (54, 4)
    """
    n = int(n)
    if not 1 <= n <= MAX_SIDE:
        raise BlockmazeError(f"a cube grid's faces are 1 to {MAX_SIDE} cells a side, got {n}")
    size = 6 * n * n
    what = f"a cube grid of {n}x{n} faces"
    check_cell_count(size, what)
    ensure_memory(size * BYTES_PER_CELL * 2, what)
    neighbors = np.full((size, len(CUBE_DIRECTIONS)), -1, dtype=np.int32)
    for face in range(6):
        first = face * n * n
        cells = first + np.arange(n * n).reshape(n, n)
        neighbors[cells[1:], NORTH] = cells[:-1]
        neighbors[cells[:-1], SOUTH] = cells[1:]
        neighbors[cells[:, :-1], EAST] = cells[:, 1:]
        neighbors[cells[:, 1:], WEST] = cells[:, :-1]
    centres = cube_centres(n)
    # a cell by its centre, in units of half a cell (integers, exact)
    key = np.rint(centres * n).astype(np.int64)
    index = {tuple(k): i for i, k in enumerate(key.tolist())}
    half = 1.0 / n
    for face in range(6):
        sides = side_vectors(face)
        cells = face * n * n + np.arange(n * n).reshape(n, n)
        edges = {NORTH: cells[0], SOUTH: cells[-1], EAST: cells[:, -1], WEST: cells[:, 0]}
        for side, edge in edges.items():
            out = sides[side]
            other = next(f for f in range(6) if (FACES[f] == out).all())
            arriving = next(s for s, v in enumerate(side_vectors(other))
                            if (v == FACES[face]).all())
            direction = _seam_direction(side, arriving)
            for cell in edge.tolist():
                across = centres[cell] + out * half - FACES[face] * half
                neighbors[cell, direction] = index[tuple(np.rint(across * n).astype(np.int64))]
    enabled = enabled_from_mask(mask, (size,), size)
    apply_mask(neighbors, enabled)
    return Grid("cube", (n,), neighbors, CUBE_OPPOSITE.copy(), CUBE_DIRECTIONS, enabled)


# --- the sphere

SPHERE_DIRECTIONS = (*POLAR_DIRECTIONS, "across")
ACROSS = len(POLAR_DIRECTIONS)
SPHERE_OPPOSITE = np.append(POLAR_OPPOSITE, ACROSS)


def hemisphere_counts(rings: int) -> np.ndarray:
    """The cells of each ring of a hemisphere of ``rings`` rings, from its pole: a ring doubles
    the one inside it when those would be more than twice as wide as high at its latitude.

    >>> hemisphere_counts(8).tolist()
    [4, 8, 8, 16, 16, 16, 16, 16]
    """
    counts = np.empty(rings, dtype=np.int64)
    counts[0] = CENTRE_CELLS
    for r in range(1, rings):
        width = 4 * rings * np.sin(np.pi / 2 * (r + 0.5) / rings)  # in ring heights
        counts[r] = 2 * counts[r - 1] if width / counts[r - 1] > 2.0 else counts[r - 1]
    return counts


def sphere_ring_counts(rings: int) -> np.ndarray:
    """The cells of each latitude ring from the north pole to the south pole."""
    half = hemisphere_counts(rings // 2)
    return np.concatenate([half, half[::-1]])


def sphere_grid(rings: int, mask: np.ndarray | None = None) -> Grid:
    """A sphere of ``rings`` latitude rings, pole to pole (even, at least 2); cells numbered
    ring by ring from the north pole, the southern hemisphere's from the south pole outward
    (a mask is one bool a cell).

    >>> g = sphere_grid(2)
    >>> g.neighbors[0].tolist()   # a wedge at the north pole: its ring, and across the equator
    [1, 3, -1, -1, -1, -1, 7]
    """
    rings = int(rings)
    if rings < 2 or rings % 2 or rings > MAX_SIDE:
        raise BlockmazeError(f"a sphere grid has an even number of rings, 2 to {MAX_SIDE} (a "
                             f"hemisphere each side of the equator), got {rings}")
    half = hemisphere_counts(rings // 2)
    cells = int(half.sum())
    size = 2 * cells
    what = f"a sphere grid of {rings} rings"
    check_cell_count(size, what)
    ensure_memory(size * BYTES_PER_CELL * 2, what)
    neighbors = np.full((size, len(SPHERE_DIRECTIONS)), -1, dtype=np.int32)
    offsets = np.concatenate([[0], np.cumsum(half)])
    for first in (0, cells):
        link_rings(neighbors[first:first + cells, :ACROSS], half, offsets, first)
    # the rims meet at the same longitudes: each hemisphere counts clockwise seen from its pole
    rim = np.arange(int(offsets[-2]), cells)
    facing = rim[::-1] + cells
    neighbors[rim, ACROSS] = facing
    neighbors[facing, ACROSS] = rim
    enabled = enabled_from_mask(mask, (size,), size)
    apply_mask(neighbors, enabled)
    return Grid("sphere", (rings,), neighbors, SPHERE_OPPOSITE.copy(), SPHERE_DIRECTIONS, enabled)


# --- nets: the surfaces cut open and laid flat (for pictures), their cut edges the seams

def wrapped_net(grid: Grid) -> CellShapes:
    """A wrapped grid's rectangle of unit squares, cut along its wrapping edges.

    >>> wrapped_net(torus_grid(3, 3)).seams[0].tolist()   # row 0, column 0: north and west cut
    [True, False, False, True]
    """
    rows, cols = grid.shape
    flat = square_shapes(grid)
    r, c = np.divmod(np.arange(grid.size), cols)
    seams = np.zeros(flat.sides.shape, dtype=bool)  # (square sides: north, east, south, west)
    seams[:, EAST], seams[:, WEST] = c == cols - 1, c == 0
    if grid.kind == "torus":
        seams[:, NORTH], seams[:, SOUTH] = r == 0, r == rows - 1
    return CellShapes(flat.points, flat.sides, flat.counts, seams)


# the cube unfolded into a cross round its +z face, a face's point (x, y, z) to (u, v): each
# face turned over the edge it shares with the face before it
_UNFOLD = (lambda x, y, z: (2 - z, y), lambda x, y, z: (z - 2, y), lambda x, y, z: (x, 2 - z),
           lambda x, y, z: (x, z - 2), lambda x, y, z: (x, y), lambda x, y, z: (4 - x, y))


def cube_net(grid: Grid) -> CellShapes:
    """The cube's six faces as a cross of n x n unit squares (4n wide, 3n high), each face seen
    from outside, north as its frame has it; cut along the seven edges the cross opens.

    >>> net = cube_net(cube_grid(2))
    >>> net.bounds(), bool((net.areas() > 0).all()), int(net.seams.sum())
    ((0.0, 0.0, 8.0, 6.0), True, 28)
    """
    n = grid.shape[0]
    full = cube_grid(n)
    cells = np.arange(grid.size)
    face, rest = np.divmod(cells, n * n)
    r, c = np.divmod(rest, n)
    down = np.stack([r, r, r + 1, r + 1], axis=1)[:, :, None]  # corners NW, NE, SE, SW
    across = np.stack([c, c + 1, c + 1, c], axis=1)[:, :, None]
    north, east = FRAMES[face, 0][:, None, :], FRAMES[face, 1][:, None, :]
    space = FACES[face][:, None, :] + north * (1 - 2 * down / n) + east * (-1 + 2 * across / n)
    points = np.empty((grid.size, 4, 2))
    for f, unfold in enumerate(_UNFOLD):
        on = face == f
        u, v = unfold(*np.moveaxis(space[on], -1, 0))
        points[on] = np.stack([(u + 3) * n / 2, (3 - v) * n / 2], axis=-1)
    # each side's direction: the one of the cell's columns that leaves by that side
    leaves = np.array([SIDES.index(name.partition(":")[0]) for name in CUBE_DIRECTIONS])
    sides = np.empty((grid.size, 4), dtype=np.int64)
    for side in range(4):
        own = (leaves == side)[None, :] & (full.neighbors >= 0)
        sides[:, side] = np.argmax(own, axis=1)
    # a seam where the cell across lies elsewhere in the net: its side's middle is not ours
    middles = (points + np.roll(points, -1, axis=1)) / 2
    across = full.neighbors[cells[:, None], sides]
    back = np.argmax(sides[across] == CUBE_OPPOSITE[sides][:, :, None], axis=2)
    seams = np.asarray(~np.isclose(middles, middles[across, back]).all(axis=2))
    return CellShapes(points, sides, np.full(grid.size, 4, dtype=np.int64), seams)


def sphere_net(grid: Grid) -> CellShapes:
    """The two hemispheres as discs side by side, each seen from outside over its pole (the
    polar grid's sectors), cut along the equator: the rims' sides go ``across``.

    >>> net = sphere_net(sphere_grid(4))
    >>> net.bounds(), int(net.seams.sum()) > 0
    ((0.0, 0.0, 9.0, 4.0), True)
    """
    half = hemisphere_counts(grid.shape[0] // 2)
    h = len(half)
    discs = [ring_shapes(half, float(h)), ring_shapes(half, float(3 * h + 1), float(h))]
    m = max(d.points.shape[1] for d in discs)
    points = np.full((grid.size, m, 2), np.nan)
    sides = np.full((grid.size, m), -1, dtype=np.int64)
    counts = np.concatenate([d.counts for d in discs])
    rim = np.zeros(grid.size, dtype=bool)
    cells = int(half.sum())
    for k, disc in enumerate(discs):
        at = slice(k * cells, (k + 1) * cells)
        points[at, : disc.points.shape[1]] = disc.points
        sides[at, : disc.sides.shape[1]] = disc.sides
        rim[at][cells - int(half[-1]):] = True
    outward = (sides == POLAR_DIRECTIONS.index("outward_a")) & rim[:, None]
    sides[outward] = ACROSS
    return CellShapes(points, sides, counts, outward)


def border_sides(grid: Grid) -> np.ndarray:
    """The outer sides of a cylinder's or a Möbius strip's cells: its edges' norths and souths
    (every direction of theirs is a side), facing no masked cell.

    >>> border_sides(cylinder_grid(2, 3)).sum(axis=0).tolist()   # north, east, south, west
    [3, 0, 3, 0]
    """
    unmasked = GRID_KINDS[grid.kind](*grid.shape)
    return (unmasked.neighbors < 0) & grid.enabled[:, None]


def no_sides(grid: Grid) -> np.ndarray:
    """A closed surface's outer sides: none (a torus, a cube, a sphere)."""
    return np.zeros((grid.size, grid.degree), dtype=bool)


register_kind("cylinder", cylinder_grid)
register_kind("torus", torus_grid)
register_kind("moebius", moebius_grid)
register_kind("cube", cube_grid)
register_kind("sphere", sphere_grid)
for kind, sides, net in (("cylinder", border_sides, wrapped_net),
                         ("moebius", border_sides, wrapped_net), ("torus", no_sides, wrapped_net),
                         ("cube", no_sides, cube_net), ("sphere", no_sides, sphere_net)):
    register_outer_sides(kind, sides)
    register_shapes(kind, net)
