"""Each cell of a maze as a kit piece: its open sides up to the grid's rotations and mirrors.

A game engine builds a maze from a few modular pieces placed one a cell, each rotated (and
perhaps mirrored). A cell's piece is the set of its open sides, taken in the order its polygon
runs (clockwise, seen from above), made canonical: of the rotations and mirror images of that
ring of sides the one that reads largest as bits, side 0 first. A canonical piece has its side
0 facing north and its sides clockwise, a side every ``360 / m`` degrees; a cell places it
mirrored across its north-south axis first (``mirror``), then turned clockwise by
``rotation`` degrees, so that canonical side ``i`` lands on the cell's side ``rotation`` side
``+ i`` (``- i`` mirrored).

Names: square cells (square, layered and weave grids) by their open sides: ``closed``,
``dead-end`` (open north), ``corridor`` (north and south), ``corner`` (north and east), ``tee``
(north, east and south), ``cross``; a layered cell with a stair adds ``-up``, ``-down`` or
``-updown``; a weave crossing that a passage dives under is ``crossing-`` and the name of its
passage on top (its under-passage runs east-west in the canonical piece). Other shapes by their
shape and canonical bits: ``hex-110100``, ``tri-110``, ``oct-10001000`` and ``sq-1010`` (the two
cells of an upsilon grid). A polar grid turns about its centre only: ``ring2-101010`` names the
open directions (cw, ccw, inward_a, inward_b, outward_a, outward_b) of a cell of ring 2, its
canonical piece the one straddling north, turned by the bearing of the cell's middle.

Example
-------
>>> from blockmaze import generate
>>> pieces = maze_pieces(generate((2, 2), rng=1))
>>> pieces.names, pieces.rotation.tolist()
(['dead-end', 'corner', 'dead-end', 'corner'], [90.0, 180.0, 90.0, 270.0])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import BlockmazeError
from ..grids.geometry import cell_shapes
from ..maze import Maze
from .endpoints import Endpoints

SQUARE_FAMILY = ("square", "layered", "weave")
SQUARE_NAMES: dict[tuple[int, ...], str] = {(0, 0, 0, 0): "closed", (1, 0, 0, 0): "dead-end", (1, 0, 1, 0): "corridor",
                (1, 1, 0, 0): "corner", (1, 1, 1, 0): "tee", (1, 1, 1, 1): "cross"}
SHAPE_NAMES = {3: "tri", 4: "sq", 6: "hex", 8: "oct"}
STAIRS = {(True, False): "-up", (False, True): "-down", (True, True): "-updown"}
# the default kit's tile: a piece is PIECE_BLOCKS blocks a side (a wall block each side of a
# three-block floor) and a level LEVEL_BLOCKS blocks high (a floor block and three of wall)
PIECE_BLOCKS, LEVEL_BLOCKS = 5, 4
# a weave crossing's piece: this and the name of its passage on top, a bridge whose deck's top
# is DECK_BLOCKS blocks over the floor of the passage under it
CROSSING, DECK_BLOCKS = "crossing-", LEVEL_BLOCKS - 1


@dataclass(frozen=True, eq=False)
class Pieces:
    """The enabled cells of a maze as pieces, one entry each, in cell order.

    ``cells`` the cell numbers; ``names`` each cell's piece; ``masks`` its passages as bits of
    the grid's direction order (``1 << d``); ``opened`` (n, k) its open sides, its passages and
    the outer openings of the endpoints (an entrance opens its piece); ``rotation`` degrees clockwise seen from above;
    ``mirror``; ``position`` (x, y, z) in engine units (Y up, north -Z: a plan unit is
    ``cell_size``, a level ``level_height``); ``level``, ``row``, ``col`` (a polar cell: its ring
    and its place in the ring); ``start``, ``goal`` and ``solution`` flags.
    """

    maze: Maze
    endpoints: Endpoints | None
    cells: np.ndarray
    names: list[str]
    masks: np.ndarray
    opened: np.ndarray
    rotation: np.ndarray
    mirror: np.ndarray
    position: np.ndarray
    level: np.ndarray
    row: np.ndarray
    col: np.ndarray
    start: np.ndarray
    goal: np.ndarray
    solution: np.ndarray
    cell_size: float
    level_height: float

    def __len__(self) -> int:
        return len(self.cells)

    @property
    def kinds(self) -> list[str]:
        """The piece names used, sorted.

        >>> from blockmaze import generate
        >>> maze_pieces(generate((3, 3), rng=2)).kinds
        ['corner', 'corridor', 'dead-end']
        """
        return sorted(set(self.names))


def _bearings(points: np.ndarray, count: int) -> np.ndarray:
    """Bearing (degrees clockwise from north, y down) of each edge's middle from the centre."""
    polygon = points[:count]
    middle = (polygon + np.roll(polygon, -1, axis=0)) / 2 - polygon.mean(axis=0)
    return np.degrees(np.arctan2(middle[:, 0], -middle[:, 1])) % 360


def canonical(bits: tuple[int, ...], mirrors: bool = True) -> tuple[tuple[int, ...], int, bool]:
    """The canonical ring of ``bits``, the cell side that plays its side 0 and whether mirrored.

    >>> canonical((0, 1, 1, 0))
    ((1, 1, 0, 0), 1, False)
    >>> canonical((1, 0, 1, 1, 0, 0))   # a hex piece and its mirror image are one piece
    ((1, 1, 0, 1, 0, 0), 3, True)
    """
    m = len(bits)
    best: tuple[tuple[int, ...], int, bool] | None = None
    for mirror in (False, True) if mirrors else (False,):
        for start in range(m):
            ring = tuple(bits[(start - i) % m if mirror else (start + i) % m] for i in range(m))
            if best is None or ring > best[0]:
                best = (ring, start, mirror)
    assert best is not None
    return best


def maze_pieces(maze: Maze, endpoints: Endpoints | None = None, block_size: float = 1.0) -> Pieces:
    """Every enabled cell of ``maze`` as a piece (see the module docstring); ``block_size`` is
    the default kit's block in engine units (a cell is :data:`PIECE_BLOCKS` of them)."""
    grid = maze.grid
    if not np.isfinite(block_size) or block_size <= 0:
        raise BlockmazeError(f"block_size must be a positive number of metres, got {block_size}")
    cells = np.flatnonzero(grid.enabled)
    shapes = cell_shapes(grid)
    masks = (maze.links[cells].astype(np.int64) << np.arange(grid.degree)).sum(axis=1)
    opened = maze.links.copy()  # a piece's open sides: its passages and its outer openings
    for cell, direction in () if endpoints is None else endpoints.openings:
        opened[cell, direction] = True
    links = opened[cells]
    names = np.empty(len(cells), object)
    rotation = np.zeros(len(cells))
    mirror = np.zeros(len(cells), bool)
    sides = shapes.sides[cells]
    if grid.kind == "polar":
        _polar(grid, cells, masks, shapes, names, rotation)
    else:
        # cells whose polygons run the same directions in the same order are one shape in one
        # orientation: their bearings and rings are worked out once, then each open-side mask once
        # (one number a row of directions: -1..k-1 in base k + 1; 8 sides at most here)
        base = grid.degree + 1
        row_keys = ((sides.astype(np.int64) + 1) * base ** np.arange(sides.shape[1])).sum(axis=1)
        _, first_rows, group = np.unique(row_keys, return_index=True,
                                                    return_inverse=True)
        for g, order in enumerate(sides[first_rows]):
            members = np.flatnonzero(group.ravel() == g)
            first = cells[members[0]]
            count = int(shapes.counts[first])
            order = order[:count]
            bearings = _bearings(shapes.points[first], count)
            ring_masks = (links[members][:, order].astype(np.int64) << np.arange(count)).sum(axis=1)
            extra = _extra(maze, cells[members], opened)
            keys, inverse = np.unique(ring_masks * 4 + extra, return_inverse=True)
            for k, (ring_mask, more) in enumerate(zip(*divmod(keys, 4), strict=True)):
                ring_mask, more = int(ring_mask), int(more)
                bits = tuple((ring_mask >> i) & 1 for i in range(count))
                ring, start, mirrored = canonical(bits)
                if grid.kind in SQUARE_FAMILY:
                    name = (CROSSING if grid.kind == "weave" and more else "") + \
                        SQUARE_NAMES[ring] + _stairs(grid, more)
                else:
                    name = f"{SHAPE_NAMES.get(count, f'poly{count}')}-{''.join(map(str, ring))}"
                chosen = members[inverse.ravel() == k]
                names[chosen] = name
                rotation[chosen] = round(float(bearings[start]), 6) % 360
                mirror[chosen] = mirrored
    return _located(maze, endpoints, cells, list(names), masks, links, rotation, mirror, shapes,
                    block_size)


def _extra(maze: Maze, cells: np.ndarray, links: np.ndarray) -> np.ndarray:
    """What a square cell's ring of sides does not say: a layered cell's stairs (bits 1 up, 2
    down), a weave crossing whose under-passage is used (1)."""
    grid = maze.grid
    if grid.kind == "layered":
        return links[cells, 4].astype(np.int64) | links[cells, 5].astype(np.int64) << 1
    if grid.kind != "weave":
        return np.zeros(len(cells), np.int64)
    used = grid.used_crossings(links)[:, 0]  # type: ignore[attr-defined]
    return np.isin(cells, used).astype(np.int64)


def _stairs(grid, more: int) -> str:
    if grid.kind == "layered":
        return STAIRS.get((bool(more & 1), bool(more & 2)), "")
    return ""


def _polar(grid, cells, masks, shapes, names, rotation) -> None:
    from ..grids.polar import ring_counts, ring_offsets

    rings = grid.shape[0]
    offsets = ring_offsets(rings)
    counts = ring_counts(rings)
    ring = np.searchsorted(offsets, cells, side="right") - 1
    place = cells - offsets[ring]
    rotation[:] = np.round(360.0 * (place + 0.5) / counts[ring], 6) % 360
    bits = ((masks[:, None] >> np.arange(6)) & 1).astype(str)
    for i in range(len(cells)):
        names[i] = f"ring{int(ring[i])}-{''.join(bits[i])}"


def _located(maze, endpoints, cells, names, masks, opened, rotation, mirror, shapes,
             block_size) -> Pieces:
    """The pieces with their places (engine units), levels, rows and columns and flags."""
    grid = maze.grid
    cell_size = PIECE_BLOCKS * block_size
    level_height = LEVEL_BLOCKS * block_size
    if grid.kind == "polar":
        from ..grids.polar import ring_offsets

        offsets = ring_offsets(grid.shape[0])
        row = np.searchsorted(offsets, cells, side="right") - 1
        col = cells - offsets[row]
        level = np.zeros(len(cells), np.int64)
    else:
        cols, rows = grid.shape[-1], grid.shape[-2]
        level = cells // (rows * cols)
        row, col = cells // cols % rows, cells % cols
    if grid.kind in SQUARE_FAMILY:  # (a layered grid's plan lays its levels side by side)
        centres = np.stack([col + 0.5, row + 0.5], axis=1)
    else:
        centres = shapes.centroids()[cells]
    position = np.stack([centres[:, 0] * cell_size, level * level_height,
                         centres[:, 1] * cell_size], axis=1)
    flags = [np.zeros(len(cells), bool) for _ in range(3)]
    if endpoints is not None:
        index = np.full(grid.size, -1, np.int64)
        index[cells] = np.arange(len(cells))
        flags[0][index[endpoints.start]] = True
        flags[1][index[endpoints.goal]] = True
        try:
            flags[2][index[endpoints.route(maze)]] = True
        except BlockmazeError:  # a goal walled off from the start: no way to flag
            pass
    return Pieces(maze, endpoints, cells, names, masks, opened, rotation, mirror, position, level,
                  row, col, flags[0], flags[1], flags[2], cell_size, level_height)
