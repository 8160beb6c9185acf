"""Recursive backtracker: a randomized depth-first search with an explicit stack.

Long winding corridors and few dead ends. Runs on any grid kind: it only reads the neighbour table.
"""

from __future__ import annotations

from ..support.kernels import COMPILED, kernel
import numpy as np

from ..grids import Grid
from . import register
from .common import NO_PARENT, carve_order, links_from_parents, note, random_enabled_cell


@kernel(views=True)
def backtracker_kernel(neighbors, opposite, enabled, start, rng, order):
    """Carve a spanning tree of ``start``'s region; return ``(links, prefetch)``.

    From the current cell, step to a uniformly random unvisited neighbour; with none left, go back
    to the newest cell that had a choice. Four details keep it fast on large grids, where the
    neighbour table no longer fits in cache:

    - ``visited`` has one extra, always-visited entry at index n, which a missing neighbour (-1)
      wraps around to, so the scan has no branch;
    - a cell left through its only open direction is not pushed: nothing can open again, so
      backtracking never rescans it (the maze for a given seed is the same either way);
    - the scan reads each candidate's table row (``prefetch``, returned so it is kept), so the
      chosen cell's row is already on its way from memory when the walk moves there (compiled
      only);
    - the walk records each cell's direction back to its parent in one byte, and the links are
      written afterwards in one sequential pass, instead of two scattered writes per step.
    """
    n, k = neighbors.shape
    back = np.full(n, NO_PARENT, dtype=np.uint8)
    visited = np.ones(n + 1, dtype=np.uint8)
    for i in range(n):
        visited[i] = 0 if enabled[i] else 1
    stack = np.empty(n, dtype=np.int32)
    open_dirs = np.empty(k + 1, dtype=np.int64)
    visited[start] = 1
    top = -1
    cell = start
    prefetch = 0
    t = 0
    while True:
        count = 0
        for d in range(k):
            nb = neighbors[cell, d]
            if COMPILED:  # (as Python, memory is not the bottleneck)
                prefetch += neighbors[nb, 0]
            open_dirs[count] = d
            count += 1 - visited[nb]
        if count == 0:
            if top < 0:
                break
            cell = stack[top]
            top -= 1
            continue
        if count > 1:
            d = open_dirs[int(rng.random() * count)]
            top += 1
            stack[top] = cell
        else:
            d = open_dirs[0]
        nb = neighbors[cell, d]
        back[nb] = opposite[d]
        t = note(order, t, nb, back[nb])
        visited[nb] = 1
        cell = nb
    return links_from_parents(neighbors, opposite, back), prefetch


@register("backtracker")
def carve(grid: Grid, rng: np.random.Generator, option: str | None = None,
          order: np.ndarray | None = None) -> np.ndarray:
    """Links of a backtracker maze over ``grid``, starting at a random enabled cell.

    Example
    -------
    >>> from blockmaze.grids import square_grid
    >>> links = carve(square_grid(3, 3), np.random.default_rng(0))
    >>> int(links.sum()) // 2   # a spanning tree of 9 cells has 8 passages
    8
    """
    start = random_enabled_cell(grid, rng)
    links, _ = backtracker_kernel(grid.neighbors, grid.opposite, grid.enabled, start, rng,
                                  carve_order(grid, False) if order is None else order)
    return links
