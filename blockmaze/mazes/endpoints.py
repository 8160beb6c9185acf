"""Where a maze starts and ends: the ends of its longest path, or entrances in its outer wall."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import analysis
from ..errors import BlockmazeError
from ..grids.geometry import outer_sides
from ..maze import Maze

MODES = ("longest", "entrances")


@dataclass(frozen=True)
class Endpoints:
    """A start cell, a goal cell, and the outer-wall openings ``(cell, direction)`` to cut.

    Example
    -------
    >>> from blockmaze import generate
    >>> ends = place_endpoints(generate((5, 5), rng=1), "entrances")
    >>> len(ends.openings)
    2
    """

    start: int
    goal: int
    openings: tuple[tuple[int, int], ...] = ()


def outside_directions(maze: Maze) -> np.ndarray:
    """``bool[n, k]``: True where a cell's side is on the grid's outer boundary (not facing a
    masked cell, and not a direction the cell's shape lacks)."""
    return outer_sides(maze.grid)


def place_endpoints(maze: Maze, mode: str = "longest") -> Endpoints:
    """Start and goal for ``maze``, deterministic for a given maze.

    Parameters
    ----------
    maze : Maze
        Any maze.
    mode : {"longest", "entrances"}
        ``longest``: the two ends of the longest path (the hardest pair). ``entrances``: the two
        cells on the outer border farthest apart along the passages, each with an opening cut
        in the outer wall; in a layered maze the start is on the bottom level, where a player
        placing the maze stands.

    Returns
    -------
    Endpoints
        ``start`` and ``goal`` cells and the ``openings`` (cell, direction) to cut.

    Examples
    --------
    >>> from blockmaze import generate
    >>> from blockmaze.grids import layered_grid
    >>> all(place_endpoints(generate(layered_grid(3, 4, 4), rng=s), "entrances").start < 16
    ...     for s in range(20))
    True
    """
    grid = maze.grid
    if mode == "longest":
        path = analysis.longest_path(grid.neighbors, maze.links, grid.enabled)
        return Endpoints(int(path[0]), int(path[-1]))
    if mode != "entrances":
        raise BlockmazeError(f"unknown endpoint mode {mode!r}; choose one of: {', '.join(MODES)}")
    outside = outside_directions(maze)
    border = np.flatnonzero(outside.any(axis=1))
    if border.size == 0:
        raise BlockmazeError("this maze has no cell on an outer wall to put an entrance in")
    ground = border[border < grid.shape[1] * grid.shape[2]] if grid.kind == "layered" else border
    if ground.size == 0:
        raise BlockmazeError("this maze has no cell on the outer wall of its bottom level to put an entrance in")
    a = analysis.farthest(analysis.bfs(grid.neighbors, maze.links, int(ground[0]))[0], ground)
    b = analysis.farthest(analysis.bfs(grid.neighbors, maze.links, a)[0], border)
    if a == b and border.size > 1:
        b = int(border[border != a][0])
    openings = tuple((cell, int(np.flatnonzero(outside[cell])[0])) for cell in dict.fromkeys((a, b)))
    return Endpoints(a, b, openings)
