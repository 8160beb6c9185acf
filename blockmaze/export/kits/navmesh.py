"""The walkable floor of a maze's pieces as navigation polygons (other shapes than squares:
:mod:`.shapes`).

Each cell is a 5 x 5 lattice of units (the default kit's blocks, :data:`PIECE_BLOCKS`): its
3 x 3 middle and, for each open side, the 3 units of that side are floor, one square polygon a
unit; a stair up is a ramp over the middle unit from its north edge (this level) to its south
edge (the next level up) in place of its floor, turned as the cell's piece is, and a stair
down leaves the middle unit open (a ramp up from there stacks over the one coming up). Every polygon edge between two floor units is shared by exactly those two, with the same
vertices, so an engine joins them (Godot 3's navigation joins polygons along edges whose
points match) and each region a player can walk is one connected piece.

Example
-------
>>> from blockmaze import generate
>>> from blockmaze.mazes.pieces import maze_pieces
>>> floor = navigation_floor(maze_pieces(generate((1, 2), rng=1)))
>>> floor.vertices.shape, floor.quads.shape   # 9 middle units and 3 of the open side, twice
((36, 3), (24, 4))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import BlockmazeError
from ...grids.geometry import cell_shapes
from ...mazes.pieces import PIECE_BLOCKS, Pieces

KINDS = ("square", "layered", "hex", "triangle", "upsilon", "polar")
LATTICE_KINDS = ("square", "layered")
_MIDDLE = [(u, v) for v in (1, 2, 3) for u in (1, 2, 3)]
# the units each open side adds (u east, v south), in the grid's direction order
_SIDES = [[(u, 0) for u in (1, 2, 3)], [(4, v) for v in (1, 2, 3)],
          [(u, 4) for u in (1, 2, 3)], [(0, v) for v in (1, 2, 3)]]
# other shapes: the cell drawn INNER of the way to its middle, bridges to the middle SPAN of an
# open side, vertices rounded to 10 micrometres so both sides of a passage meet on one point
INNER, SPAN, DIGITS = 0.6, (0.25, 0.75), 5
NAVMESH_BYTES = 5 * 4 * 3 * 8 * 2  # a unit's quad and its vertices while they are found


@dataclass(frozen=True)
class Floor:
    """Navigation polygons: ``vertices`` float32 (V, 3) in metres (x, y, z), ``quads`` int
    (Q, 4) or triangles (Q, 3), each counter-clockwise seen from above (the way a floor faces up
    in glTF)."""

    vertices: np.ndarray
    quads: np.ndarray

    def triangles(self) -> np.ndarray:
        """The polygons as triangles, wound as they are."""
        if self.quads.shape[1] == 3:
            return self.quads
        return self.quads[:, [0, 1, 2, 0, 2, 3]].reshape(-1, 3)


def check_kind(kind: str, what: str) -> None:
    """Refuse a grid kind whose pieces have no navigation floor or default kit yet."""
    if kind not in KINDS:
        raise BlockmazeError(f"{what} takes {', '.join(KINDS)} mazes; a {kind} maze's "
                             "crossings have no kit piece yet: its pieces are in its piece list "
                             "(-o maze.pieces.json)")


def navigation_floor(pieces: Pieces, cell_size: float | None = None,
                     level_height: float | None = None) -> Floor:
    """The walkable floor of ``pieces`` (see the module docstring), in a kit's units."""
    from ...support.memory import ensure_step_memory

    check_kind(pieces.maze.grid.kind, "a navigation mesh")
    if pieces.maze.grid.kind not in LATTICE_KINDS:
        return polygon_floor(pieces, cell_size)
    ensure_step_memory("navmesh", len(pieces) * 21 * NAVMESH_BYTES,
                       f"the navigation floor of {len(pieces)} cells")
    cell_size = pieces.cell_size if cell_size is None else cell_size
    level_height = pieces.level_height if level_height is None else level_height
    links = pieces.maze.links[pieces.cells]
    up = links[:, 4] if links.shape[1] > 4 else np.zeros(len(pieces), bool)
    down = links[:, 5] if links.shape[1] > 5 else np.zeros(len(pieces), bool)
    units = [np.array(_MIDDLE)[None].repeat(len(pieces), 0)]
    keep = [np.ones((len(pieces), 9), bool)]
    keep[0][:, 4] = ~(up | down)  # the middle unit: a stair's ramp up, or the opening of one down
    for d, side in enumerate(_SIDES):
        units.append(np.array(side)[None].repeat(len(pieces), 0))
        keep.append(np.repeat(links[:, d:d + 1], 3, axis=1))
    unit = np.concatenate(units, axis=1)  # (n, 21, 2)
    chosen = np.concatenate(keep, axis=1)
    origin = np.stack([pieces.col * PIECE_BLOCKS, pieces.row * PIECE_BLOCKS], axis=1)
    cell, slot = np.nonzero(chosen)
    corner = unit[cell, slot] + origin[cell]  # (q, 2): the unit's north-west corner (x, z)
    square = np.array([[0, 0], [0, 1], [1, 1], [1, 0]])  # counter-clockwise seen from above
    xz = corner[:, None, :] + square[None]
    y = np.repeat(pieces.level[cell][:, None], 4, axis=1) * 2  # in half levels: ramps are whole
    quads = [np.concatenate([xz[..., :1], y[..., None], xz[..., 1:]], axis=2)]
    stairs = np.flatnonzero(up)
    if len(stairs):
        quads.append(_ramps(pieces, stairs, origin))
    lattice = np.concatenate(quads).reshape(-1, 3).astype(np.int64)
    # a lattice point's number, (y, z, x) in that order, so the vertices come out sorted
    sides = lattice.max(axis=0) + 1
    keys = (lattice[:, 1] * sides[2] + lattice[:, 2]) * sides[0] + lattice[:, 0]
    unique, index = np.unique(keys, return_inverse=True)
    points = np.stack([unique % sides[0], unique // (sides[0] * sides[2]),
                       unique // sides[0] % sides[2]], axis=1)
    scale = np.array([cell_size / PIECE_BLOCKS, level_height / 2, cell_size / PIECE_BLOCKS])
    return Floor((points * scale).astype(np.float32), index.reshape(-1, 4))


def _ramps(pieces: Pieces, stairs: np.ndarray, origin: np.ndarray) -> np.ndarray:
    """The ramps of the cells ``stairs`` as lattice quads (x, half levels, z), each turned as its
    piece is: from the middle unit's north edge on its level to its south edge a level up."""
    # corners about the middle unit's centre, in half units: NW, SW (top), SE (top), NE
    local = np.array([[-1, 0, -1], [-1, 2, 1], [1, 2, 1], [1, 0, -1]])
    quads = []
    for i in stairs.tolist():
        turn = np.radians(pieces.rotation[i])
        # clockwise seen from above (x east, z south): north (0, -1) turns to east (1, 0)
        c, s = round(np.cos(turn)), round(np.sin(turn))
        east = -local[:, 0] if pieces.mirror[i] else local[:, 0]  # mirrored first, then turned
        x = east * c - local[:, 2] * s
        z = east * s + local[:, 2] * c
        centre = 2 * origin[i] + 2 * 2 + 1  # the middle unit's centre in half units
        quad = np.stack([(centre[0] + x) // 2, local[:, 1] + 2 * pieces.level[i],
                         (centre[1] + z) // 2], axis=1)
        if np.cross(quad[1] - quad[0], quad[2] - quad[0])[1] < 0:  # keep facing up
            quad = quad[::-1]
        quads.append(quad)
    return np.array(quads)


def polygon_floor(pieces: Pieces, cell_size: float | None = None) -> Floor:
    """The walkable floor of a maze of polygon cells, as triangles: each cell drawn
    :data:`INNER` of the way towards its middle (a fan) and, for each open side, a bridge from
    that inner side out to the middle :data:`SPAN` of the side, where the neighbour's bridge
    meets it on the same points.

    >>> from blockmaze import generate
    >>> from blockmaze.mazes.pieces import maze_pieces
    >>> floor = polygon_floor(maze_pieces(generate((2, 2), kind="hex", rng=1)))
    >>> len(floor.triangles()) == 6 * 4 + 2 * 2 * 3   # 6 fan triangles a cell, 2 a bridge end
    True
    """
    grid = pieces.maze.grid
    shapes = cell_shapes(grid)
    centres = shapes.centroids()
    scale = pieces.cell_size if cell_size is None else cell_size  # metres a plan unit
    triangles = []
    for cell in pieces.cells.tolist():
        polygon = shapes.polygon(cell)
        centre = centres[cell]
        inner = centre + INNER * (polygon - centre)
        m = len(polygon)
        for j in range(m):
            k = (j + 1) % m
            triangles.append([centre, inner[k], inner[j]])
            direction = shapes.sides[cell, j]
            if direction >= 0 and pieces.maze.links[cell, direction]:
                near = polygon[j] + SPAN[0] * (polygon[k] - polygon[j])
                far = polygon[j] + SPAN[1] * (polygon[k] - polygon[j])
                triangles.append([inner[j], inner[k], far])
                triangles.append([inner[j], far, near])
    points = np.round(np.array(triangles).reshape(-1, 2) * scale, DIGITS)
    unique, index = np.unique(points, axis=0, return_inverse=True)
    vertices = np.column_stack([unique[:, 0], np.zeros(len(unique)), unique[:, 1]])
    tri = index.reshape(-1, 3)
    a, b, c = (unique[tri[:, k]] for k in range(3))
    down = (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0]) - (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) < 0
    tri[down] = tri[down][:, ::-1]  # every triangle facing up
    return Floor(vertices.astype(np.float32), tri)
