"""Walking a maze's passages: BFS distances, shortest paths and the spanning-tree test.

Numba kernels over the neighbour table and the links; ``Maze`` calls them. The search itself is
:func:`blockmaze.support.breadth.breadth_first`, the package's one flood fill over a neighbour table.
"""

from __future__ import annotations

from .support.breadth import breadth_first
from .support.kernels import kernel
import numpy as np


@kernel(views=True)
def label_regions(neighbors, enabled):
    """``(labels, count)``: each enabled cell's connected region through the neighbour table
    (0..count-1, numbered in order of their lowest cell), -1 for the other cells.

    >>> nb = np.array([[1], [-1], [-1]], dtype=np.int32)
    >>> labels, count = label_regions(nb, np.array([True, True, True]))
    >>> labels.tolist(), count
    ([0, 0, 1], 2)
    """
    n, k = neighbors.shape
    distance = np.full(n, -1, dtype=np.int32)
    labels = np.full(n, -1, dtype=np.int32)
    queue = np.empty(n, dtype=np.int32)
    every = np.zeros((0, k), dtype=np.bool_)
    no_parents = np.empty(0, dtype=np.int32)
    count = 0
    for first in range(n):
        if enabled[first] and distance[first] < 0:
            reached = breadth_first(neighbors, every, first, distance, no_parents, queue)
            for i in range(reached):
                labels[queue[i]] = count
            count += 1
    return labels, count


def bfs(neighbors: np.ndarray, links: np.ndarray, start: int) -> tuple[np.ndarray, np.ndarray]:
    """Distances (-1 where unreachable) and BFS parents from ``start`` along linked passages.

    Example
    -------
    >>> nb = np.array([[1], [-1]], dtype=np.int32)
    >>> dist, parent = bfs(nb, np.array([[True], [False]]), 0)
    >>> dist.tolist(), parent.tolist()
    ([0, 1], [0, 0])
    """
    n = neighbors.shape[0]
    distance = np.full(n, -1, dtype=np.int32)
    parents = np.full(n, -1, dtype=np.int32)
    breadth_first(neighbors, links, int(start), distance, parents, np.empty(n, dtype=np.int32))
    return distance, parents


def path_from_parents(parents: np.ndarray, goal: int) -> np.ndarray:
    """The cells from the BFS root to ``goal``, both included (empty if goal was not reached).

    >>> path_from_parents(np.array([0, 0, 1]), 2).tolist()
    [0, 1, 2]
    """
    if parents[goal] < 0:
        return np.empty(0, dtype=np.int32)
    return _walk_back(np.asarray(parents), int(goal))


@kernel(views=True)
def _walk_back(parents, goal):
    length = 1
    cell = goal
    while parents[cell] != cell:
        cell = parents[cell]
        length += 1
    path = np.empty(length, dtype=np.int32)
    cell = goal
    for i in range(length - 1, -1, -1):
        path[i] = cell
        cell = parents[cell]
    return path


@kernel(views=True)
def link_problem(neighbors, opposite, links):
    """0 if every link leads to a neighbour that links back; 1 if one leads nowhere; 2 if one-sided."""
    n, k = neighbors.shape
    for cell in range(n):
        for d in range(k):
            if links[cell, d]:
                nb = neighbors[cell, d]
                if nb < 0:
                    return 1
                if not links[nb, opposite[d]]:
                    return 2
    return 0


def is_spanning_tree(neighbors: np.ndarray, links: np.ndarray, enabled: np.ndarray) -> bool:
    """True when the links form one tree over exactly the enabled cells.

    A graph on v vertices is a tree when it is connected and has v - 1 edges.

    >>> nb = np.array([[1], [0]], dtype=np.int32)
    >>> is_spanning_tree(nb, np.array([[True], [True]]), np.array([True, True]))
    True
    """
    cells = np.flatnonzero(enabled)
    if cells.size == 0:
        return False
    if np.count_nonzero(links) != 2 * (cells.size - 1):
        return False
    distance, _ = bfs(neighbors, links, int(cells[0]))
    return bool(np.all(distance[cells] >= 0))


def farthest(distance: np.ndarray, among: np.ndarray | None = None) -> int:
    """The cell with the largest BFS distance (lowest index on ties), optionally among some cells.

    >>> farthest(np.array([0, 3, 3, -1])), farthest(np.array([0, 3, 2]), np.array([0, 2]))
    (1, 2)
    """
    if among is None:
        return int(np.argmax(distance))
    return int(among[np.argmax(distance[among])])


def longest_path(neighbors: np.ndarray, links: np.ndarray, enabled: np.ndarray) -> np.ndarray:
    """The longest path of a perfect maze, by two BFS passes (its diameter).

    From the first enabled cell, the farthest cell a is one end of a longest path; the farthest
    cell from a is the other. In a maze with loops the result is a long shortest path, not
    necessarily the longest one.

    >>> nb = np.array([[1, -1], [2, 0], [-1, 1]], dtype=np.int32)
    >>> longest_path(nb, np.array([[True, False], [True, True], [False, True]]), np.ones(3, bool)).tolist()
    [2, 1, 0]
    """
    n = neighbors.shape[0]
    return longest_path_kernel(neighbors, links, int(np.flatnonzero(enabled)[0]),
                               np.empty(n, np.int32), np.empty(n, np.int32), np.empty(n, np.int32))


@kernel(views=True)
def longest_path_kernel(neighbors, links, first, distance, parents, queue):
    """:func:`longest_path` from the enabled cell ``first``, in the arrays given (a place per
    cell each; overwritten): the farthest cell from ``first`` (lowest index on ties), then the
    path from it to the farthest cell from it."""
    n = neighbors.shape[0]
    ends = np.empty(2, np.int64)
    root = first
    for search in range(2):
        for cell in range(n):
            distance[cell] = -1
            parents[cell] = -1
        breadth_first(neighbors, links, root, distance, parents, queue)
        best = 0
        for cell in range(n):
            if distance[cell] > distance[best]:
                best = cell
        ends[search] = best
        root = best
    return _walk_back(parents, ends[1])


def degrees(links: np.ndarray) -> np.ndarray:
    """Passages leaving each cell."""
    return np.count_nonzero(links, axis=1)
