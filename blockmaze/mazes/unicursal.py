"""A unicursal maze from a perfect one: a single path, with no junction, through every cell.

Walter Pullen's construction (Think Labyrinth, "Maze Algorithms": unicursal mazes): follow the
wall of a perfect maze with one hand and the walk goes down every passage and back, once on
each side of it, and returns where it began. Split every passage lengthwise into two lanes, one
for the walk in and one for the walk out, and that walk is a path of its own; cut it once and
it has two ends.

On a square grid the split is exact: each cell becomes 2x2 cells, a grid of twice the rows and
columns, and each of the four quarter cells lies in one corner of its cell, between two of its
sides. For each side: a wall joins the two quarters along it (the lane turns along the wall); an
open side joins them to the two quarters across it (both lanes go through). So every quarter
has exactly two links, and for a spanning tree those links form one cycle round the tree. The
cycle is cut between the two north quarters of the first enabled cell (its north side is the
grid's edge or a masked cell, so they are joined along that wall): the path runs from its
north-west quarter to its north-east one, both on the outer wall.

A hexagon, triangle, octagon or ring sector does not split into cells of its own kind, so the
other grid kinds are refused (:data:`UNICURSAL_KINDS` names the ones that work).

Example
-------
>>> from blockmaze import generate
>>> maze = unicursal(generate((3, 4), rng=1))
>>> maze.grid.shape, maze.is_perfect(), int(maze.dead_ends.size)
((6, 8), True, 2)
"""

from __future__ import annotations

import numpy as np

from ..errors import BlockmazeError
from ..grids import grid_constructor
from ..maze import Maze

UNICURSAL_KINDS = ("square",)
NORTH, EAST, SOUTH, WEST = range(4)


def check_unicursal_kind(kind: str) -> None:
    """Refuse a grid kind whose cells do not split into a grid of the same kind.

    >>> check_unicursal_kind("hex")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: --unicursal works on square grids only (each cell splits into 2x2 cells); a hex cell does not split into hex cells
    """
    if kind not in UNICURSAL_KINDS:
        raise BlockmazeError(f"--unicursal works on {' and '.join(UNICURSAL_KINDS)} grids only "
                             f"(each cell splits into 2x2 cells); a {kind} cell does not split "
                             f"into {kind} cells")


def unicursal(maze: Maze) -> Maze:
    """The unicursal maze of a perfect square ``maze``: twice its rows and columns, one path
    through every cell, from :func:`unicursal_ends` ``[0]`` to ``[1]`` (see the module docstring).

    >>> from blockmaze import generate
    >>> path = unicursal(generate((2, 2), rng=0))
    >>> sorted(int(d) for d in path.links.sum(axis=1)).count(2), unicursal_ends(path)
    (14, (0, 1))
    """
    grid = maze.grid
    check_unicursal_kind(grid.kind)
    if not maze.is_perfect():
        raise BlockmazeError("--unicursal splits the passages of a perfect maze (one way between "
                             "any two cells): drop --braid, or carve it with a perfect algorithm")
    rows, cols = grid.shape
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
    for quarter, side in ((tl, NORTH), (tr, NORTH), (bl, SOUTH), (br, SOUTH)):
        quarter[..., side] |= links[..., side]
    for quarter, side in ((tl, WEST), (bl, WEST), (tr, EAST), (br, EAST)):
        quarter[..., side] |= links[..., side]
    flat = out.reshape(-1, 4)
    start, goal = unicursal_ends(doubled)
    flat[start, EAST] = flat[goal, WEST] = False  # the cut: the circuit becomes a path
    return Maze(doubled, flat, validate=False)


def unicursal_ends(maze_or_grid) -> tuple[int, int]:
    """The two ends of a :func:`unicursal` maze's path: the north quarters of the first enabled
    cell (cell numbers of the doubled grid).

    >>> from blockmaze import square_grid
    >>> unicursal_ends(square_grid(4, 6))
    (0, 1)
    """
    grid = getattr(maze_or_grid, "grid", maze_or_grid)
    first = int(np.flatnonzero(grid.enabled)[0])
    return first, first + 1


def unicursal_endpoints(maze: Maze, entrances: bool = False):
    """Start and goal of a :func:`unicursal` maze: its path's two ends, with an opening north
    of each when ``entrances`` (where that side is the grid's outer wall).

    >>> from blockmaze import generate
    >>> unicursal_endpoints(unicursal(generate((2, 2), rng=0)), entrances=True)
    Endpoints(start=0, goal=1, openings=((0, 0), (1, 0)))
    """
    from ..grids.geometry import outer_sides
    from .endpoints import Endpoints

    start, goal = unicursal_ends(maze)
    outer = outer_sides(maze.grid) if entrances else None
    openings = tuple((cell, NORTH) for cell in (start, goal)
                     if outer is not None and outer[cell, NORTH])
    return Endpoints(start, goal, openings)
