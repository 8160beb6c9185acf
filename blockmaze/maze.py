"""Maze: a grid plus the passages (links) carved between neighbouring cells."""

from __future__ import annotations

import numpy as np

from . import analysis
from .errors import BlockmazeError
from .grids import Grid


class Maze:
    """A grid and a symmetric ``links: bool[n, k]`` (``links[i, d]`` = open towards direction d).

    Links are checked (symmetric, between neighbours) unless ``validate=False``.

    Example
    -------
    >>> from blockmaze import generate
    >>> m = generate((4, 5), rng=1)
    >>> m.is_perfect(), m.passage_count
    (True, 19)
    >>> int(m.distances(0)[0])
    0
    """

    def __init__(self, grid: Grid, links: np.ndarray | None = None, validate: bool = True):
        self.grid = grid
        if links is None:
            links = np.zeros(grid.neighbors.shape, dtype=bool)
        links = np.asarray(links)
        if links.shape != grid.neighbors.shape or links.dtype != bool:
            raise BlockmazeError(
                f"links must be a bool array of shape {grid.neighbors.shape}, "
                f"got {links.dtype} {links.shape}"
            )
        self.links = links
        if validate:  # generators skip it: their links are valid by construction (and tested so)
            self._check_links()

    def _check_links(self) -> None:
        problem = analysis.link_problem(self.grid.neighbors, self.grid.opposite, self.links)
        if problem == 1:
            raise BlockmazeError("a link leads out of the grid or into a disabled cell")
        if problem == 2:
            raise BlockmazeError("links are not symmetric: a passage is open from one side only")

    @property
    def passage_count(self) -> int:
        """Number of passages (each counted once)."""
        return int(np.count_nonzero(self.links)) // 2

    def link(self, cell: int, direction: int, open_: bool = True) -> None:
        """Open (or with ``open_=False`` close) the passage from ``cell`` towards ``direction``.

        >>> from blockmaze.grids import square_grid
        >>> m = Maze(square_grid(1, 2)); m.link(0, 1); m.passage_count
        1
        """
        neighbor = int(self.grid.neighbors[cell, direction])
        if neighbor < 0:
            raise BlockmazeError(
                f"cell {cell} has no neighbour towards {self.grid.directions[direction]}"
            )
        self.links[cell, direction] = open_
        self.links[neighbor, self.grid.opposite[direction]] = open_

    def replace(self, links: np.ndarray) -> Maze:
        """A maze on the same grid with other links (checked)."""
        return Maze(self.grid, links)

    @property
    def dead_ends(self) -> np.ndarray:
        """The cells with exactly one passage."""
        return np.flatnonzero(analysis.degrees(self.links) == 1)

    def longest_path(self) -> np.ndarray:
        """The cells of the longest path (of a perfect maze; see analysis.longest_path)."""
        return analysis.longest_path(self.grid.neighbors, self.links, self.grid.enabled)

    def is_perfect(self) -> bool:
        """True when the passages form a spanning tree of the enabled cells: one path between any two.

        Returns
        -------
        bool
            Whether every enabled cell is reached and no passage closes a loop.

        Examples
        --------
        >>> from blockmaze import braid, generate
        >>> m = generate((4, 4), rng=1)
        >>> m.is_perfect(), braid(m, 1.0, rng=1).is_perfect()
        (True, False)
        """
        return analysis.is_spanning_tree(self.grid.neighbors, self.links, self.grid.enabled)

    def distances(self, start: int) -> np.ndarray:
        """BFS distance in steps from ``start`` to every cell (-1 where unreachable)."""
        self._check_cell(start)
        return analysis.bfs(self.grid.neighbors, self.links, start)[0]

    def shortest_path(self, start: int, goal: int) -> np.ndarray:
        """The cells of a shortest path from ``start`` to ``goal``, both included.

        Parameters
        ----------
        start, goal : int
            Cell indices (``row * cols + col`` on a square grid).

        Returns
        -------
        numpy.ndarray
            The cells in order from ``start`` to ``goal``.

        Examples
        --------
        >>> from blockmaze import generate
        >>> m = generate((3, 3), rng=2)
        >>> path = m.shortest_path(0, 8)
        >>> int(path[0]), int(path[-1]), len(path) == int(m.distances(0)[8]) + 1
        (0, 8, True)
        """
        self._check_cell(start)
        self._check_cell(goal)
        _, parents = analysis.bfs(self.grid.neighbors, self.links, start)
        path = analysis.path_from_parents(parents, goal)
        if path.size == 0:
            raise BlockmazeError(f"cell {goal} cannot be reached from cell {start}")
        return path

    def _check_cell(self, cell: int) -> None:
        if not (0 <= cell < self.grid.size) or not self.grid.enabled[cell]:
            raise BlockmazeError(
                f"cell {cell} is not an enabled cell of this maze (cells are 0..{self.grid.size - 1})"
            )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Maze):
            return NotImplemented
        return self.grid == other.grid and np.array_equal(self.links, other.links)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Maze({self.grid!r}, {self.passage_count} passages)"
