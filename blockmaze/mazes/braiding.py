"""Braiding: removing dead ends by opening a wall, so the maze gets loops."""

from __future__ import annotations

from ..support.kernels import kernel
import numpy as np

from ..errors import BlockmazeError
from ..maze import Maze
from ..support.randomness import as_generator


@kernel
def _braid(neighbors, opposite, links, order, p, rng):
    n, k = neighbors.shape
    degree = np.zeros(n, dtype=np.int64)
    for cell in range(n):
        for d in range(k):
            degree[cell] += links[cell, d]
    dead_ends = np.empty(k, dtype=np.int64)
    others = np.empty(k, dtype=np.int64)
    for cell in order:
        if degree[cell] != 1 or rng.random() >= p:
            continue
        n_dead, n_other = 0, 0
        for d in range(k):
            nb = neighbors[cell, d]
            if nb >= 0 and not links[cell, d]:
                if degree[nb] == 1:
                    dead_ends[n_dead] = d
                    n_dead += 1
                else:
                    others[n_other] = d
                    n_other += 1
        if n_dead > 0:
            d = dead_ends[int(rng.random() * n_dead)]
        elif n_other > 0:
            d = others[int(rng.random() * n_other)]
        else:
            continue
        nb = neighbors[cell, d]
        links[cell, d] = True
        links[nb, opposite[d]] = True
        degree[cell] += 1
        degree[nb] += 1


def braid(maze: Maze, p: float, rng: np.random.Generator | int | None = None) -> Maze:
    """A copy of ``maze`` with a share ``p`` (0..1) of its dead ends opened into a neighbour.

    Dead ends are visited in random order; each still a dead end is opened with probability p,
    into a neighbouring dead end where there is one (removing two at once), else into any
    neighbour it is not yet linked to. Opening walls never disconnects the maze.

    Parameters
    ----------
    maze : Maze
        The maze to braid (left unchanged).
    p : float
        The share of dead ends to open, 0 (none) to 1 (all).
    rng : numpy.random.Generator, int or None
        The seed of the order and the choices.

    Returns
    -------
    Maze
        A new maze with loops where dead ends were.

    Examples
    --------
    >>> from blockmaze import generate
    >>> m = generate((20, 20), rng=1)
    >>> full = braid(m, 1.0, rng=1)
    >>> int((full.links.sum(axis=1) == 1).sum()), full.passage_count > m.passage_count
    (0, True)
    """
    if not 0.0 <= p <= 1.0:
        raise BlockmazeError(f"braid must be a share between 0 and 1, got {p}")
    rng = as_generator(rng)
    links = maze.links.copy()
    dead = np.flatnonzero(links.sum(axis=1) == 1)
    order = dead[rng.permutation(dead.size)]
    if p > 0:
        _braid(maze.grid.neighbors, maze.grid.opposite, links, order, float(p), rng)
    return maze.replace(links=links)
