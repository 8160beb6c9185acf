"""Where a maze starts and ends: the ends of its longest path, or entrances in its outer wall;
and, for a game, more exits in the outer wall and checkpoints the way passes in order."""

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
    """A start cell, a goal cell, and the outer-wall openings ``(cell, direction)`` to cut;
    ``checkpoints``, cells the way from start to goal passes in this order, and ``exits``, cells
    with an opening of their own besides start's and goal's (see :func:`add_exits`,
    :func:`add_checkpoints`).

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
    checkpoints: tuple[int, ...] = ()
    exits: tuple[int, ...] = ()

    def route(self, maze: Maze) -> np.ndarray:
        """The cells of the way from start through every checkpoint, in order, to the goal.

        >>> from blockmaze import generate
        >>> maze = generate((6, 6), rng=2)
        >>> ends = add_checkpoints(maze, place_endpoints(maze), 2)
        >>> route = ends.route(maze)
        >>> [int(c) for c in route[[0, -1]]] == [ends.start, ends.goal]
        True
        """
        stops = [self.start, *self.checkpoints, self.goal]
        legs = [maze.shortest_path(a, b) for a, b in zip(stops[:-1], stops[1:], strict=True)]
        return np.concatenate([legs[0], *(leg[1:] for leg in legs[1:])])


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


def _ground(maze: Maze, cells: np.ndarray) -> np.ndarray:
    """The cells on a layered maze's bottom level (where a player walks in), or all of them."""
    grid = maze.grid
    return cells[cells < grid.shape[1] * grid.shape[2]] if grid.kind == "layered" else cells


def add_exits(maze: Maze, endpoints: Endpoints, count: int) -> Endpoints:
    """``endpoints`` with ``count`` more openings in the outer wall, at border cells spread
    around the maze: each the border cell farthest, walking the passages, from the start and
    every opening chosen before it (ties: the lowest cell), never a checkpoint. The maze's
    links are not touched.

    >>> from blockmaze import generate
    >>> maze = generate((6, 6), rng=1)
    >>> ends = add_exits(maze, place_endpoints(maze, "entrances"), 3)
    >>> len(ends.openings), len(ends.exits), len(set(ends.exits) | {ends.start, ends.goal})
    (5, 3, 5)
    """
    if count <= 0:
        return endpoints
    outside = outside_directions(maze)
    taken = {cell for cell, _ in endpoints.openings} | {endpoints.start, endpoints.goal,
                                                          *endpoints.checkpoints}
    border = np.array([c for c in _ground(maze, np.flatnonzero(outside.any(axis=1))).tolist()
                       if c not in taken], dtype=np.int64)
    if border.size < count:
        raise BlockmazeError(f"this maze has {border.size} more cells on its outer wall "
                             f"{'of its bottom level ' if maze.grid.kind == 'layered' else ''}"
                             f"for exits, not {count}")
    grid = maze.grid
    nearest = np.full(grid.size, np.iinfo(np.int64).max, dtype=np.int64)
    exits: list[int] = []
    for source in [endpoints.start, *(c for c, _ in endpoints.openings)]:
        nearest = np.minimum(nearest, _reach(maze, source))
    for _ in range(count):
        free = border[~np.isin(border, exits)]
        cell = int(free[np.argmax(nearest[free])])
        exits.append(cell)
        nearest = np.minimum(nearest, _reach(maze, cell))
    openings = tuple((cell, int(np.flatnonzero(outside[cell])[0])) for cell in exits)
    return Endpoints(endpoints.start, endpoints.goal, endpoints.openings + openings,
                     endpoints.checkpoints, endpoints.exits + tuple(exits))


def _reach(maze: Maze, source: int) -> np.ndarray:
    """Walking distances from ``source`` (cells it cannot reach: as far as can be)."""
    grid = maze.grid
    distance = analysis.bfs(grid.neighbors, maze.links, int(source))[0].astype(np.int64)
    distance[distance < 0] = np.iinfo(np.int64).max // 2
    return distance


def add_checkpoints(maze: Maze, endpoints: Endpoints, count: int) -> Endpoints:
    """``endpoints`` with ``count`` checkpoints: cells of the shortest way from start to goal,
    spread evenly along it (the k-th of n at k/(n+1) of its length), so the way passes them in
    order; in a perfect maze that way is the only one.

    >>> from blockmaze import generate
    >>> maze = generate((6, 6), rng=1)
    >>> ends = add_checkpoints(maze, place_endpoints(maze), 3)
    >>> path = maze.shortest_path(ends.start, ends.goal).tolist()
    >>> [path.index(c) for c in ends.checkpoints] == sorted(path.index(c) for c in ends.checkpoints)
    True
    """
    if count <= 0:
        return endpoints
    path = maze.shortest_path(endpoints.start, endpoints.goal)
    inner = len(path) - 2
    if inner < count:
        raise BlockmazeError(f"the way from start to goal passes {max(inner, 0)} cells between "
                             f"them, too few for {count} checkpoints")
    steps = [round(k * (len(path) - 1) / (count + 1)) for k in range(1, count + 1)]
    steps = [min(max(step, k + 1), inner - count + k + 1) for k, step in enumerate(steps)]
    return Endpoints(endpoints.start, endpoints.goal, endpoints.openings,
                     tuple(int(path[step]) for step in steps), endpoints.exits)
