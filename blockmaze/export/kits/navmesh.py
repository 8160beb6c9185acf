"""The walkable floor of a maze's pieces as navigation polygons (other shapes than squares:
:mod:`.shapes`).

Each cell is a 5 x 5 lattice of units (the default kit's blocks, :data:`PIECE_BLOCKS`): its
3 x 3 middle (one polygon) and, for each open side, the 3 units of that side (one more) are
floor. A stair up is a ramp over the middle unit from its north edge (this level) to its south
edge (the next level up) in place of its floor, turned as the cell's piece is, and a stair down
leaves the middle unit open (a ramp up from there stacks over the one coming up): a cell with
stairs has its middle as the 8 units round the stair, and its sides' strips meet each unit on
an edge of its own. A weave crossing (turned as its piece is) has two floors that meet nowhere:
the under-passage's, 3 units wide across the whole cell on its level, and the bridge's, its
deck over the middle 3 x 3 units :data:`~blockmaze.mazes.pieces.DECK_BLOCKS` of the level's
:data:`~blockmaze.mazes.pieces.LEVEL_BLOCKS` up and a ramp from each open side's strip to it. Every polygon edge between two floor polygons is shared by exactly those
two, with the same vertices, so an engine joins them (Godot 3's navigation joins polygons along
edges whose points match) and each region a player can walk is one connected piece.

Example
-------
>>> from blockmaze import generate
>>> from blockmaze.mazes.pieces import maze_pieces
>>> floor = navigation_floor(maze_pieces(generate((1, 2), rng=1)))
>>> floor.vertices.shape, floor.quads.shape   # each cell's middle and its open side's strip
((10, 3), (4, 4))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import BlockmazeError
from ...grids.geometry import cell_shapes
from ...mazes.pieces import CROSSING, DECK_BLOCKS, LEVEL_BLOCKS, PIECE_BLOCKS, Pieces

KINDS = ("square", "layered", "weave", "hex", "triangle", "upsilon", "polar")
LATTICE_KINDS = ("square", "layered", "weave")
QUARTERS = 4  # the lattice's heights: a quarter of a level each
# a weave crossing in its canonical turn (its passage on top north-south, :mod:`.kit`), as
# (u, quarter levels, v) corners: the under-passage's floor east-west across the whole cell,
# the deck over the middle, and the ramp from the north side's middle up to the deck
_DECK = round(QUARTERS * DECK_BLOCKS / LEVEL_BLOCKS)
_UNDER = np.array([[0, 0, 1], [0, 0, 4], [5, 0, 4], [5, 0, 1]])
_BRIDGE = np.array([[1, _DECK, 1], [1, _DECK, 4], [4, _DECK, 4], [4, _DECK, 1]])
_UP = np.array([[1, 0, 0], [1, _DECK, 1], [4, _DECK, 1], [4, 0, 0]])
_MIDDLE = [(u, v) for v in (1, 2, 3) for u in (1, 2, 3)]
# polygons' corners (u east, v south), counter-clockwise seen from above: a unit, the 3 x 3
# middle, the north side's strip, and that strip with its inner edge cut where the units meet it
_SQUARE = np.array([[0, 0], [0, 1], [1, 1], [1, 0]])
_CENTRE = np.array([[1, 1], [1, 4], [4, 4], [4, 1]])
_STRIP = np.array([[1, 0], [1, 1], [4, 1], [4, 0]])
_STRIP_UNITS = np.array([[1, 0], [1, 1], [2, 1], [3, 1], [4, 1], [4, 0]])
# other shapes: the cell drawn INNER of the way to its middle, bridges to the middle SPAN of an
# open side, vertices rounded to 10 micrometres so both sides of a passage meet on one point
INNER, SPAN, DIGITS = 0.6, (0.25, 0.75), 5
NAVMESH_NODE = "floor-navmesh"  # the walkable floor's node: Godot imports -navmesh as one
NAVMESH_BYTES = 5 * 4 * 3 * 8 * 2  # a unit's quad and its vertices while they are found


@dataclass(frozen=True)
class Floor:
    """Navigation polygons: ``vertices`` float32 (V, 3) in metres (x, y, z), ``quads`` int
    (Q, 4) or triangles (Q, 3), each counter-clockwise seen from above (the way a floor faces up
    in glTF)."""

    vertices: np.ndarray
    quads: np.ndarray
    hexes: np.ndarray | None = None  # (H, 6): a strip whose inner edge meets three units

    def polygons(self) -> list[np.ndarray]:
        """Every polygon's vertex indices: the quads (or triangles), then the hexagons."""
        return [*self.quads, *(() if self.hexes is None else self.hexes)]

    def triangles(self) -> np.ndarray:
        """The polygons as triangles, wound as they are (a hexagon fanned from its first
        corner, which no inner edge holds)."""
        if self.quads.shape[1] == 3:
            return self.quads
        parts = [self.quads[:, [0, 1, 2, 0, 2, 3]].reshape(-1, 3)]
        if self.hexes is not None:
            parts.append(self.hexes[:, [0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 5]].reshape(-1, 3))
        return np.concatenate(parts)


def check_kind(kind: str, what: str) -> None:
    """Refuse a grid kind whose pieces have no navigation floor or default kit yet."""
    if kind not in KINDS:
        raise BlockmazeError(f"{what} takes {', '.join(KINDS)} mazes; a {kind} maze's cells "
                             "have no default piece or navigation floor yet: its pieces are in "
                             "its piece list (-o maze.pieces.json)")


def navigation_floor(pieces: Pieces, cell_size: float | None = None,
                     level_height: float | None = None) -> Floor:
    """The walkable floor of ``pieces`` (see the module docstring), in a kit's units."""
    from ...support.memory import ensure_step_memory

    check_kind(pieces.maze.grid.kind, "a navigation mesh")
    if pieces.maze.grid.kind not in LATTICE_KINDS:
        return polygon_floor(pieces, cell_size)
    ensure_step_memory("navmesh", len(pieces) * 13 * NAVMESH_BYTES,
                       f"the navigation floor of {len(pieces)} cells")
    cell_size = pieces.cell_size if cell_size is None else cell_size
    level_height = pieces.level_height if level_height is None else level_height
    links = pieces.opened
    up = links[:, 4] if links.shape[1] > 4 else np.zeros(len(pieces), bool)
    down = links[:, 5] if links.shape[1] > 5 else np.zeros(len(pieces), bool)
    stair = up | down
    crossing = np.array([name.startswith(CROSSING) for name in pieces.names], bool)
    origin = np.stack([pieces.col * PIECE_BLOCKS, pieces.row * PIECE_BLOCKS], axis=1)
    quads, hexes = [], []

    def placed(cells: np.ndarray, template: np.ndarray) -> np.ndarray:
        """``template`` (m, 2) lattice points at each of ``cells``: (len, m, 3) in quarter
        levels."""
        xz = template[None] + origin[cells][:, None]
        y = np.repeat(pieces.level[cells][:, None], len(template), axis=1) * QUARTERS
        return np.concatenate([xz[..., :1], y[..., None], xz[..., 1:]], axis=2)

    for d in range(4):  # a crossing: its two floors, turned as its piece is
        turned = np.flatnonzero(crossing & (np.round(pieces.rotation / 90) % 4 == d))
        for template, side in ((_UNDER, -1), (_BRIDGE, -1), (_UP, 0), (_UP, 2)):
            chosen = turned if side < 0 else turned[links[turned, (d + side) % 4]]
            if side == 2:  # the south ramp: the north one turned half round
                template = np.column_stack([PIECE_BLOCKS - template[:, 0], template[:, 1],
                                            PIECE_BLOCKS - template[:, 2]])
            quad = placed(chosen, _turned(template[:, [0, 2]], d))
            quad[..., 1] += template[:, 1]
            quads.append(quad)
    plain = np.flatnonzero(~stair & ~crossing)
    quads.append(placed(plain, _CENTRE))  # a cell without stairs: its middle in one piece
    stairs = np.flatnonzero(stair)
    for unit in _MIDDLE:  # a cell with stairs: its middle a unit at a time, round the stair
        if unit != (2, 2):
            quads.append(placed(stairs, _SQUARE + np.array(unit)))
    for d in range(4):
        opened = links[:, d]
        quads.append(placed(np.flatnonzero(opened & ~stair & ~crossing), _turned(_STRIP, d)))
        # (beside a middle in units, a side's strip meets each unit on its own edge)
        hexes.append(placed(np.flatnonzero(opened & stair), _turned(_STRIP_UNITS, d)))
    climbing = np.flatnonzero(up)
    if len(climbing):
        quads.append(_ramps(pieces, climbing, origin))
    four = np.concatenate(quads).reshape(-1, 3)
    six = np.concatenate(hexes).reshape(-1, 3)
    scale = np.array([cell_size / PIECE_BLOCKS, level_height / QUARTERS, cell_size / PIECE_BLOCKS])
    return lattice_floor(four, six, scale)


def lattice_floor(four: np.ndarray, six: np.ndarray, scale) -> Floor:
    """The :class:`Floor` of quads ``four`` (4q, 3) and hexagons ``six`` (6h, 3), their corners
    as integer lattice points (x, y, z), one vertex a point (so polygons meeting on an edge share
    its vertices), ``scale`` (x, y, z) metres a lattice step."""
    lattice = np.concatenate([four, six])
    # a lattice point's number, (y, z, x) in that order, so the vertices come out sorted
    sides = lattice.max(axis=0).astype(np.int64) + 1
    keys = (lattice[:, 1] * sides[2] + lattice[:, 2]) * sides[0] + lattice[:, 0]
    if int(np.prod(sides)) <= 4 * len(keys) + 1024:  # a dense lattice: numbered by marks
        seen = np.zeros(int(np.prod(sides)), bool)
        seen[keys] = True
        unique = np.flatnonzero(seen)
        index = (np.cumsum(seen, dtype=np.int64 if len(unique) >> 31 else np.int32) - 1)[keys]
    else:
        unique, index = np.unique(keys, return_inverse=True)
    points = np.stack([unique % sides[0], unique // (sides[0] * sides[2]),
                       unique // sides[0] % sides[2]], axis=1)
    return Floor((points * np.asarray(scale)).astype(np.float32), index[:len(four)].reshape(-1, 4),
                 index[len(four):].reshape(-1, 6))


def block_floor(blocks: np.ndarray) -> Floor:
    """The walkable floor of a voxel volume (y, z, x), in blocks: the top of each floor block
    (solid and neither wall nor roof) with two blocks of air over it in the volume, a quad a
    block, neighbours sharing edges. A volume with stairs (a floor that steps between levels)
    is refused: its steps have no floor polygons yet.

    >>> blocks = np.full((3, 2, 3), 2, np.uint8)   # a floor (2) of 2 x 3 blocks ...
    >>> blocks[1:, :, :2] = 0                      # ... air over 2 x 2 of it, solid beside
    >>> floor = block_floor(blocks)
    >>> floor.quads.shape, floor.vertices.shape    # 4 quads sharing the 9 corners of a 2 x 2
    ((4, 4), (9, 3))
    """
    from ...materials import Material
    from ...support.memory import ensure_step_memory

    blocks = np.asarray(blocks)
    if (blocks == Material.STAIRS).any():
        raise BlockmazeError("--navmesh on a voxel mesh draws flat floors, and this one steps "
                             "(stairs: a layered, weave or 3-D maze, a dungeon's levels); a "
                             "maze's kit scene, -o maze.kit.glb --navmesh, walks its stairs "
                             "and bridges")
    solid = (blocks != Material.AIR) & (blocks != Material.WALL) & (blocks != Material.ROOF)
    air = blocks == Material.AIR
    walkable = solid[:-2] & air[1:-1] & air[2:]
    y, z, x = np.nonzero(walkable)
    if not len(y):
        raise BlockmazeError("--navmesh: the volume has no floor block with two blocks of air "
                             "over it")
    ensure_step_memory("navmesh", len(y) * NAVMESH_BYTES, f"the navigation floor of {len(y)} blocks")
    corner = np.stack([x, y + 1, z], axis=1).astype(np.int64)[:, None] + \
        np.array([[0, 0, 0], [0, 0, 1], [1, 0, 1], [1, 0, 0]])[None]  # facing up, as _SQUARE
    return lattice_floor(corner.reshape(-1, 3), np.zeros((0, 3), np.int64), (1.0, 1.0, 1.0))


def _turned(template: np.ndarray, d: int) -> np.ndarray:
    """A north side's ``template`` turned to the grid's direction ``d`` (clockwise quarters
    seen from above) about the cell's middle; doubled lattice points keep the turn whole."""
    x, z = (2 * template - PIECE_BLOCKS).T
    for _ in range(d):
        x, z = -z, x
    return np.stack([(x + PIECE_BLOCKS) // 2, (z + PIECE_BLOCKS) // 2], axis=1)


def _ramps(pieces: Pieces, stairs: np.ndarray, origin: np.ndarray) -> np.ndarray:
    """The ramps of the cells ``stairs`` as lattice quads (x, quarter levels, z), each turned as its
    piece is: from the middle unit's north edge on its level to its south edge a level up."""
    # corners about the middle unit's centre, in half units: NW, SW (top), SE (top), NE
    local = np.array([[-1, 0, -1], [-1, QUARTERS, 1], [1, QUARTERS, 1], [1, 0, -1]])
    quads = []
    for i in stairs.tolist():
        turn = np.radians(pieces.rotation[i])
        # clockwise seen from above (x east, z south): north (0, -1) turns to east (1, 0)
        c, s = round(np.cos(turn)), round(np.sin(turn))
        east = -local[:, 0] if pieces.mirror[i] else local[:, 0]  # mirrored first, then turned
        x = east * c - local[:, 2] * s
        z = east * s + local[:, 2] * c
        centre = 2 * origin[i] + 2 * 2 + 1  # the middle unit's centre in half units
        quad = np.stack([(centre[0] + x) // 2, local[:, 1] + QUARTERS * pieces.level[i],
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
    for i, cell in enumerate(pieces.cells.tolist()):
        polygon = shapes.polygon(cell)
        centre = centres[cell]
        inner = centre + INNER * (polygon - centre)
        m = len(polygon)
        for j in range(m):
            k = (j + 1) % m
            triangles.append([centre, inner[k], inner[j]])
            direction = shapes.sides[cell, j]
            if direction >= 0 and pieces.opened[i, direction]:
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
