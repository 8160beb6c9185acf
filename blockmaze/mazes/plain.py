"""A plain maze in one compiled call: what ``blockmaze generate`` makes with no option but its
size and grid kind (the backtracker's carve, start and goal at the ends of the longest path,
the solution between them). ``make_maze`` makes every such maze here, and a batch its rows.

:func:`plain_maze` gives the same links, ends and solution as the carve
(:func:`~blockmaze.mazes.generation.generate`), then the ends
(:func:`~blockmaze.mazes.endpoints.place_endpoints`) and the route, for the same grid and seed
(tests/test_plain.py holds them equal): it runs the same kernels, the backtracker's walk and
the longest path's searches, inside one kernel, so a 17x17 maze pays one call's overhead
instead of a few dozen Python steps (about 45 us against 300 us a maze compiled).

>>> from blockmaze.grids import square_grid
>>> from blockmaze.mazes.endpoints import place_endpoints
>>> from blockmaze.mazes.generation import generate
>>> grid = square_grid(4, 5)
>>> maze = plain_maze(PlainLayout.of(grid), np.random.default_rng(7))
>>> long_way = generate(grid, rng=7)  # the carve, then the ends: the same maze
>>> ends = place_endpoints(long_way)
>>> bool((maze.links == long_way.links).all()), (maze.start, maze.goal) == (ends.start, ends.goal)
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..algorithms.backtracker import backtracker_kernel
from ..algorithms.common import NO_PARENT, links_from_parents, position_at, walk_layout
from ..analysis import longest_path_kernel
from ..grids import Grid
from ..support.kernels import kernel

NO_ORDER = np.empty((0, 2), dtype=np.int32)  # the carve order is not recorded


@dataclass(frozen=True, eq=False)
class PlainLayout:
    """What every plain maze of one grid shares, made once: the grid's table, its enabled cells
    and the backtracker's walk layout (:func:`~blockmaze.algorithms.common.walk_layout`)."""

    grid: Grid
    cells: np.ndarray
    strides: np.ndarray
    width: int
    visited: np.ndarray

    @classmethod
    def of(cls, grid: Grid) -> PlainLayout:
        strides, width, visited, _ = walk_layout(grid, 0)
        return cls(grid, np.flatnonzero(grid.enabled), strides, width, visited)


@dataclass(frozen=True)
class PlainMaze:
    """A plain maze's links, start, goal, solution (start to goal) and its number of dead ends."""

    links: np.ndarray
    start: int
    goal: int
    solution: np.ndarray
    dead_ends: int


def plain_maze(layout: PlainLayout, rng: np.random.Generator) -> PlainMaze:
    """The plain maze of ``layout``'s grid drawn from ``rng`` (``np.random.default_rng(seed)``
    as ``make_maze`` makes it for a seed; see the module's docstring)."""
    grid = layout.grid
    n = grid.size
    links, solution, dead_ends = plain_maze_kernel(
        grid.neighbors, grid.opposite, layout.strides, layout.width,
        layout.visited.copy(), layout.cells, rng, NO_ORDER,
        np.empty(n, np.int32), np.empty(n, np.int32), np.empty(n, np.int32))
    return PlainMaze(links, int(solution[0]), int(solution[-1]), solution, int(dead_ends))


@kernel(views=True)
def plain_maze_kernel(neighbors, opposite, strides, width, visited, cells, rng, order,
                      distance, parents, queue):
    """``(links, solution, dead ends)`` of a plain maze: the backtracker from a random enabled
    cell (one draw, as :func:`~blockmaze.algorithms.common.random_enabled_cell` makes it), its
    longest path (start to goal, the solution of a perfect maze) and its cells of one passage.
    ``width`` 0 off a square grid (see :func:`~blockmaze.algorithms.common.walk_layout`);
    ``distance``, ``parents``, ``queue``: a place per cell."""
    n, k = neighbors.shape
    start = cells[int(rng.random() * cells.shape[0])]
    back, _ = backtracker_kernel(neighbors, strides, width, visited, position_at(start, width),
                                 opposite, rng, order)
    parent = np.full(n, NO_PARENT, dtype=np.uint8)
    for cell in range(n):  # each position's direction back, by cell (the frame dropped)
        parent[cell] = back[position_at(cell, width)]
    links = links_from_parents(neighbors, opposite, parent)
    solution = longest_path_kernel(neighbors, links, cells[0], distance, parents, queue)
    dead_ends = 0
    for cell in range(n):
        passages = 0
        for d in range(k):
            passages += links[cell, d]
        dead_ends += passages == 1
    return links, solution, dead_ends
