"""Pieces several algorithms share: choosing a start cell, union-find, shuffling edges."""

from __future__ import annotations

import numba
import numpy as np

from ..grids import Grid


def random_enabled_cell(grid: Grid, rng: np.random.Generator) -> int:
    """A uniformly random enabled cell (one draw of ``rng``).

    >>> from blockmaze.grids import square_grid
    >>> 0 <= random_enabled_cell(square_grid(2, 2), np.random.default_rng(0)) < 4
    True
    """
    cells = np.flatnonzero(grid.enabled)
    return int(cells[int(rng.random() * cells.size)])


@numba.njit(cache=True)
def find(parent, a):
    """Root of ``a``'s set in a union-find forest, halving the path on the way."""
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    return a


@numba.njit(cache=True)
def union(parent, rank, a, b):
    """Merge the sets of ``a`` and ``b``; return False if they were already one set."""
    ra, rb = find(parent, a), find(parent, b)
    if ra == rb:
        return False
    if rank[ra] < rank[rb]:
        ra, rb = rb, ra
    parent[rb] = ra
    if rank[ra] == rank[rb]:
        rank[ra] += 1
    return True


@numba.njit(cache=True)
def region_kernel(neighbors, start):
    """Mark the cells reachable from ``start`` through the neighbour table; return ``(marks, count)``.

    ``marks`` is a uint8 array, 1 for a cell of the region; ``count`` is the region's size. A
    breadth-first search over the table; Aldous-Broder needs the count to know when to stop, Wilson
    the marks to know where to start walks.
    """
    n, k = neighbors.shape
    marks = np.zeros(n, dtype=np.uint8)
    queue = np.empty(n, dtype=np.int32)
    marks[start] = 1
    queue[0] = start
    head, tail = 0, 1
    while head < tail:
        cell = queue[head]
        head += 1
        for d in range(k):
            nb = neighbors[cell, d]
            if nb >= 0 and marks[nb] == 0:
                marks[nb] = 1
                queue[tail] = nb
                tail += 1
    return marks, tail


def edge_list(grid: Grid) -> tuple[np.ndarray, np.ndarray]:
    """Every neighbour pair once, as (cells, directions) with ``neighbors[cell, d] > cell``.

    >>> from blockmaze.grids import square_grid
    >>> cells, dirs = edge_list(square_grid(1, 3))
    >>> cells.tolist(), dirs.tolist()
    ([0, 1], [1, 1])
    """
    cells, dirs = np.nonzero(grid.neighbors > np.arange(grid.size)[:, None])
    return cells.astype(np.int32), dirs.astype(np.int32)
