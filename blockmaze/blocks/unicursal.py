"""A unicursal maze from a perfect one: a single path, with no junction, through every cell.

Walter Pullen's construction (Think Labyrinth, "Maze Algorithms": unicursal mazes): follow the
wall of a perfect maze with one hand and the walk goes down every passage and back, once on
each side of it, and returns where it began. Split every passage lengthwise into two lanes, one
for the walk in and one for the walk out, and that walk is a path of its own; cut it once and
it has two ends.

**Square grids.** The split is exact: each cell becomes 2x2 cells, a grid of twice the rows and
columns, and each of the four quarter cells lies in one corner of its cell, between two of its
sides. For each side: a wall joins the two quarters along it (the lane turns along the wall); an
open side joins them to the two quarters across it (both lanes go through). So every quarter
has exactly two links, and for a spanning tree those links form one cycle round the tree.
:func:`split` cuts that cycle between the two quarters along one wall of one cell: for a
square maze, the first cell on the grid's edge, on its first side there (:func:`entrance`; the
north side of the north-west cell when there is no mask), so the path runs between two quarters
side by side on the outer wall.

**Hex, triangle, upsilon and polar grids.** A hexagon, triangle, octagon or ring sector does not
split into cells of its own kind, so the split is done in blocks (:func:`block_maze`). The maze
is rasterized thin (:func:`blockmaze.blocks.raster.raster` with ``rooms=False``, ``corridor=1``):
every passage a 1-block-wide corridor anchor -> gate -> anchor, and the entrance's opening out
to the plan's border (the first cell on the outer wall, through its first outer side). Those
open blocks, joined side to side, are one connected set, and the raster's checks let blocks of
two cells touch only where the cells are linked. A breadth-first spanning tree of that set from
the entrance's border block is a perfect maze on a masked square grid, one cell a block: the
maze drawn in corridors. :func:`split` splits it as above, cut at that border block's outer
side, so both ends lie side by side at the entrance on the outer wall, and every cell of the
original maze (its anchor block, four quarter cells) is on the path. The plan's scale is the
kind's least (:func:`~blockmaze.blocks.raster.min_scale`) unless ``scale`` says otherwise.

Layered and weave grids (levels, crossings) have no one flat plan to split and are refused
(:data:`UNICURSAL_KINDS` names the kinds that work).

Example
-------
>>> from blockmaze import generate
>>> maze = unicursal(generate((3, 4), rng=1))
>>> maze.grid.shape, maze.is_perfect(), int(maze.dead_ends.size)
((6, 8), True, 2)
>>> path = unicursal(generate((3, 4), rng=1, kind="hex"))
>>> path.grid.kind, path.is_perfect(), int(path.dead_ends.size)
('square', True, 2)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import BlockmazeError, ParameterError
from ..grids import grid_constructor
from ..grids.geometry import outer_sides
from ..maze import Maze
from ..mazes.endpoints import Endpoints
from ..support.breadth import FOUR, NO_LABELS, block_breadth_first

UNICURSAL_KINDS = ("square", "hex", "triangle", "upsilon", "polar")
NORTH, EAST, SOUTH, WEST = range(4)
# the quarters (row, column within the cell's 2x2) along each side, and the step between them
_ALONG = {NORTH: ((0, 0), (0, 1), EAST), SOUTH: ((1, 0), (1, 1), EAST),
          WEST: ((0, 0), (1, 0), SOUTH), EAST: ((0, 1), (1, 1), SOUTH)}
_FLAT = {"layered": "levels", "weave": "crossings"}


def check_unicursal_kind(kind: str) -> None:
    """Refuse a grid kind with no one flat plan to split.

    >>> check_unicursal_kind("hex")
    >>> check_unicursal_kind("layered")
    Traceback (most recent call last):
    ...
    blockmaze.errors.ParameterError: unicursal splits the plan of a square, hex, triangle, upsilon or polar maze; a layered maze's levels have no one plan to split
    """
    if kind not in UNICURSAL_KINDS:
        what = f"a {kind} maze's {_FLAT[kind]} have" if kind in _FLAT else f"a {kind} grid has"
        raise ParameterError(f"{{unicursal}} splits the plan of a {', '.join(UNICURSAL_KINDS[:-1])} "
                             f"or {UNICURSAL_KINDS[-1]} maze; {what} no one plan to split")


def unicursal(maze: Maze, scale: int | None = None) -> Maze:
    """The unicursal maze of a perfect ``maze``: one path through every cell, on a square grid,
    from :func:`unicursal_ends` ``[0]`` to ``[1]`` (see the module docstring).

    A square maze becomes one of twice its rows and columns; another kind's maze is first drawn
    in 1-block corridors at ``scale`` (default the kind's least), each block a cell
    (:func:`block_maze`), and that is split.

    >>> from blockmaze import generate
    >>> path = unicursal(generate((2, 2), rng=0))
    >>> sorted(int(d) for d in path.links.sum(axis=1)).count(2), unicursal_ends(path)
    (14, (0, 1))
    >>> path = unicursal(generate((3,), rng=0, kind="polar"))
    >>> path.grid.kind, path.is_perfect()
    ('square', True)
    """
    kind = maze.grid.kind
    check_unicursal_kind(kind)
    if not maze.is_perfect():
        raise ParameterError("{unicursal} splits the passages of a perfect maze (one way between "
                             "any two cells): drop {braid}, or carve it with a perfect algorithm")
    if kind == "square":
        return split(maze, entrance(maze.grid))
    drawn = block_maze(maze, scale)
    return split(drawn.maze, drawn.entrance)


@dataclass(frozen=True, eq=False)
class BlockMaze:
    """A maze drawn in 1-block corridors, as a perfect maze on a square grid (:func:`block_maze`).

    Attributes
    ----------
    maze : Maze
        A spanning tree of the open blocks, one cell a block (the rest masked).
    cells : int64 (n,)
        For each cell of the drawn maze, the cell of its anchor block; -1 for disabled cells.
    labels : int32 (n',)
        For each cell of ``maze``, the drawn maze's cell its block belongs to; -1 for a masked
        cell, -2 for the entrance's blocks outside every cell.
    entrance : (int, int)
        The entrance's block on the outer wall and the side it opens on (a direction).
    """

    maze: Maze
    cells: np.ndarray
    labels: np.ndarray
    entrance: tuple[int, int]


def entrance(grid) -> tuple[int, int] | None:
    """Where a unicursal path's two ends go: the first enabled cell on the grid's outer wall and
    its first side there (``(cell, direction)``), or None if no enabled cell is on it.

    >>> from blockmaze import hex_grid, square_grid
    >>> entrance(square_grid(3, 3)), entrance(hex_grid(3, 3))
    ((0, 0), (0, 0))
    >>> import numpy as np
    >>> entrance(square_grid(3, 3, mask=np.array([[0, 0, 0], [1, 1, 0], [0, 1, 0]], bool)))
    (3, 3)
    """
    if grid.kind == "square":  # (the edge rows and columns: no polygons to build)
        rows, cols = grid.shape
        edge = np.zeros((rows, cols), dtype=bool)
        edge[[0, -1], :] = edge[:, [0, -1]] = True
        border = np.flatnonzero(edge.ravel() & grid.enabled)
        if border.size == 0:
            return None
        cell = int(border[0])
        return cell, next(side for side in range(4) if _on_edge(grid.shape, cell, side))
    outer = outer_sides(grid)
    border = np.flatnonzero(outer.any(axis=1))
    if border.size == 0:
        return None
    cell = int(border[0])
    return cell, int(np.flatnonzero(outer[cell])[0])


def _on_edge(shape: tuple[int, ...], cell: int, side: int) -> bool:
    """Whether ``side`` of ``cell`` of a square grid of ``shape`` is on the grid's edge."""
    r, c = divmod(cell, shape[1])
    return (r == 0, c == shape[1] - 1, r == shape[0] - 1, c == 0)[side]


def block_maze(maze: Maze, scale: int | None = None) -> BlockMaze:
    """A perfect ``maze`` of a rasterized kind (hex, triangle, upsilon, polar) drawn in 1-block
    corridors, as a perfect maze on a square grid whose cells are the open blocks: the blocks of
    the thin plan at ``scale`` (default the kind's least), joined by a breadth-first spanning
    tree from the entrance's block on the outer wall.

    >>> from blockmaze import generate
    >>> drawn = block_maze(generate((2, 2), rng=0, kind="hex"))
    >>> drawn.maze.is_perfect(), drawn.maze.grid.enabled_count, drawn.entrance
    (True, 24, (0, 0))
    """
    from .raster import min_scale, raster

    grid = maze.grid
    scale = min_scale(grid.kind) if scale is None else scale
    door = entrance(grid)
    ends = None if door is None else Endpoints(door[0], door[0], (door,))
    thin = raster(maze, scale, ends, corridor=1, rooms=False)
    labels = thin.labels
    open_ = labels != -1
    rows, cols = np.flatnonzero(open_.any(axis=1)), np.flatnonzero(open_.any(axis=0))
    z0, x0 = int(rows[0]), int(cols[0])
    labels = labels[z0:int(rows[-1]) + 1, x0:int(cols[-1]) + 1]
    on = labels != -1
    height, width = on.shape
    # the opening's block on the plan's border (the solid margin is open nowhere else); with no
    # cell on the outer wall, the first open block, whose north is solid
    start = (int(np.flatnonzero(on)[0]), NORTH)
    if door is not None:
        nz, nx = thin.labels.shape
        for side, line, at in ((NORTH, thin.labels[0], lambda i: (0, i)),
                               (SOUTH, thin.labels[-1], lambda i: (nz - 1, i)),
                               (WEST, thin.labels[:, 0], lambda i: (i, 0)),
                               (EAST, thin.labels[:, -1], lambda i: (i, nx - 1))):
            found = np.flatnonzero(line != -1)
            if found.size:
                z, x = at(int(found[0]))
                start = ((z - z0) * width + x - x0, side)
                break
    passable = on.ravel()
    distance = np.full(passable.size, -1, dtype=np.int32)
    queue = np.empty(passable.size, dtype=np.int64)
    parents = np.full(passable.size, -1, dtype=np.int64)
    distance[start[0]], queue[0] = 0, start[0]
    count = block_breadth_first(passable, np.array([1, height, width], dtype=np.int64), FOUR,
                                distance, queue, 1, -1, parents, NO_LABELS)
    if count != int(passable.sum()):  # (the raster's corridors join every linked pair)
        raise BlockmazeError("the maze's corridors are not connected: is it a perfect maze?")
    child = queue[1:count]
    step = parents[child] - child
    direction = np.select([step == -width, step == 1, step == width], [NORTH, EAST, SOUTH], WEST)
    links = np.zeros((passable.size, 4), dtype=bool)
    links[child, direction] = True
    links[parents[child], (direction + 2) % 4] = True
    square = grid_constructor("square")(height, width, mask=None if on.all() else on)
    anchors = thin.anchors
    cells = np.where(grid.enabled, (anchors[:, 0] - z0) * width + anchors[:, 1] - x0, -1)
    return BlockMaze(Maze(square, links, validate=False), cells.astype(np.int64),
                     labels.ravel().copy(), start)


def split(maze: Maze, cut: tuple[int, int] | None = None) -> Maze:
    """Pullen's split of a perfect square ``maze``: 2x2 cells a cell, one cycle round the tree,
    cut between the two quarters along side ``cut[1]`` of cell ``cut[0]`` (a wall: the grid's
    edge or a masked cell); by default the north side of the first enabled cell.

    >>> from blockmaze import generate
    >>> path = split(generate((2, 3), rng=4), cut=(5, EAST))
    >>> path.is_perfect(), unicursal_ends(path)
    (True, (17, 23))
    """
    grid = maze.grid
    rows, cols = grid.shape
    if cut is None:
        cut = (int(np.flatnonzero(grid.enabled)[0]), NORTH)
    cell, side = cut
    if grid.kind != "square" or not grid.enabled[cell] or maze.links[cell, side]:
        raise BlockmazeError(f"cannot cut the split at side {side} of cell {cell}: not a wall of "
                             "an enabled square cell")
    on = grid.enabled.reshape(rows, cols)
    links = maze.links.reshape(rows, cols, 4)
    mask = None if on.all() else np.repeat(np.repeat(on, 2, axis=0), 2, axis=1)
    doubled = grid_constructor("square")(2 * rows, 2 * cols, mask=mask)
    out = np.zeros((2 * rows, 2 * cols, 4), dtype=bool)
    tl, tr, bl, br = (out[dr::2, dc::2] for dr, dc in ((0, 0), (0, 1), (1, 0), (1, 1)))
    closed = ~links & on[..., None]
    # a wall: the two quarters along it are joined
    tl[..., EAST] |= closed[..., NORTH]
    tr[..., WEST] |= closed[..., NORTH]
    bl[..., EAST] |= closed[..., SOUTH]
    br[..., WEST] |= closed[..., SOUTH]
    tl[..., SOUTH] |= closed[..., WEST]
    bl[..., NORTH] |= closed[..., WEST]
    tr[..., SOUTH] |= closed[..., EAST]
    br[..., NORTH] |= closed[..., EAST]
    # an open side: both lanes go through to the quarters across it
    for quarter, side_ in ((tl, NORTH), (tr, NORTH), (bl, SOUTH), (br, SOUTH)):
        quarter[..., side_] |= links[..., side_]
    for quarter, side_ in ((tl, WEST), (bl, WEST), (tr, EAST), (br, EAST)):
        quarter[..., side_] |= links[..., side_]
    flat = out.reshape(-1, 4)
    r, c = divmod(cell, cols)
    (ar, ac), (br_, bc), step = _ALONG[side]
    a = (2 * r + ar) * 2 * cols + 2 * c + ac
    b = (2 * r + br_) * 2 * cols + 2 * c + bc
    flat[a, step] = flat[b, (step + 2) % 4] = False  # the cut: the circuit becomes a path
    return Maze(doubled, flat, validate=False)


def unicursal_ends(maze: Maze) -> tuple[int, int]:
    """The two ends of a :func:`unicursal` maze's path (its two cells with one passage), in order.

    >>> from blockmaze import generate
    >>> unicursal_ends(unicursal(generate((4, 6), rng=0)))
    (0, 1)
    """
    if maze.grid.kind != "square":
        raise BlockmazeError(f"not a unicursal maze: a {maze.grid.kind} maze (they are square)")
    # a cell's four link flags read as one 32-bit word: one passage is one byte set, a power of two
    words = np.ascontiguousarray(maze.links).view(np.uint32).ravel()
    ends = np.flatnonzero((words != 0) & ((words & (words - np.uint32(1))) == 0))
    if ends.size != 2:
        raise BlockmazeError(f"not a unicursal maze: {ends.size} cells have one passage, not 2")
    return int(ends[0]), int(ends[1])


def unicursal_endpoints(maze: Maze, entrances: bool = False) -> Endpoints:
    """Start and goal of a :func:`unicursal` maze: its path's two ends, with an opening in the
    outer wall beside each when ``entrances`` (the side the cut was made on, where that is the
    grid's outer wall).

    >>> from blockmaze import generate
    >>> unicursal_endpoints(unicursal(generate((2, 2), rng=0)), entrances=True)
    Endpoints(start=0, goal=1, openings=((0, 0), (1, 0)), checkpoints=(), exits=())
    """
    start, goal = unicursal_ends(maze)
    if not entrances:
        return Endpoints(start, goal)
    cols = maze.grid.shape[1]
    if goal == start + 1:  # side by side in a row: the cut was on a north or south side
        side = NORTH if (start // cols) % 2 == 0 else SOUTH
    else:  # one above the other: a west or east side
        side = WEST if (start % cols) % 2 == 0 else EAST
    return Endpoints(start, goal, tuple((cell, side) for cell in (start, goal)
                                        if _on_edge(maze.grid.shape, cell, side)))
