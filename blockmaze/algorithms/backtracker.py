"""Recursive backtracker: a randomized depth-first search with an explicit stack.

Long winding corridors and few dead ends. Runs on any grid kind: it only reads the neighbour table
(on a square grid, the same walk steps by strides instead: :func:`~.common.walk_layout`).
"""

from __future__ import annotations

from ..support.kernels import COMPILED, kernel
import numpy as np

from ..grids import Grid
from . import register
from .common import (NO_PARENT, carve_order, cell_at, cells_of, links_from_parents, note,
                     random_enabled_cell, walk_layout)


@kernel(views=True)
def backtracker_kernel(neighbors, strides, width, visited, start, opposite, rng, order):
    """Walk a spanning tree of ``start``'s region; return ``(back, prefetch)``: each position's
    direction back to its parent (``NO_PARENT`` for the root and unreached ones).

    From the current cell, step to a uniformly random unvisited neighbour; with none left, go back
    to the newest cell that had a choice. The walk runs over the positions of
    :func:`~.common.walk_layout` (``visited``: 1 where no walk may enter): a position's neighbour
    is ``position + strides[d]`` on a square grid, ``neighbors[cell, d]`` elsewhere.

    A cell left through its only open direction is not pushed: nothing can open again, so
    backtracking never rescans it. The table scan reads each candidate's table row
    (``prefetch``, returned so it is kept), so the chosen cell's row is already on its way from
    memory when the walk moves there (compiled only). The walk records each position's direction
    back in one byte; the links are written afterwards in one sequential pass.
    """
    k = opposite.shape[0]
    strided = strides.shape[0] > 0
    back = np.full(visited.shape[0], NO_PARENT, dtype=np.uint8)
    stack = np.empty(visited.shape[0], dtype=np.int32)
    open_dirs = np.empty(k + 1, dtype=np.int64)
    visited[start] = 1
    top = -1
    cell = start
    prefetch = 0
    t = 0
    while True:
        count = 0
        for d in range(k):
            if strided:
                nb = cell + strides[d]
            else:
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
        nb = cell + strides[d] if strided else neighbors[cell, d]
        back[nb] = opposite[d]
        if order.shape[0]:
            t = note(order, t, cell_at(nb, width), back[nb])
        visited[nb] = 1
        cell = nb
    return back, prefetch


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
    order = carve_order(grid, False) if order is None else order
    strides, width, visited, start = walk_layout(grid, start)
    back, _ = backtracker_kernel(grid.neighbors, strides, width, visited, start, grid.opposite, rng, order)
    return links_from_parents(grid.neighbors, grid.opposite, cells_of(back, width))
