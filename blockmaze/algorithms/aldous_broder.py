"""Aldous-Broder: a uniform spanning tree from a plain random walk.

The walk moves to a uniformly random neighbour whether it was visited or not, and carves a passage
each time it enters a cell for the first time. Every spanning tree of the region is equally likely
(Aldous 1990, Broder 1989), which makes it the reference for an unbiased maze: many short dead ends
and no preferred direction. It is slow by nature — the walk must cover the whole region, of
the order of n (log n)^2 steps on a square grid (60 to 80 a cell at 1000 x 1000) — but a step
costs only a few nanoseconds. Runs on any grid kind and on masked grids: it carves the start
cell's region.
"""

from __future__ import annotations

from ..support.kernels import kernel
import numpy as np

from ..grids import Grid
from . import register
from .common import (NO_PARENT, carve_order, cell_at, cells_of, links_from_parents, note,
                     random_enabled_cell, region_kernel, walk_layout)


@kernel(views=True)
def aldous_broder_kernel(neighbors, strides, width, state, start, remaining, opposite, rng, order):
    """Walk from ``start`` until its region's ``remaining`` other cells are visited; return each
    position's direction back to the cell it was first entered from (``NO_PARENT`` for none).

    The walk runs over the positions of :func:`~.common.walk_layout`: a position's neighbour is
    ``position + strides[d]`` on a square grid, ``neighbors[cell, d]`` elsewhere; ``state`` is its
    ``visited`` doubled, so 2 marks a position no walk may enter (the frame, a disabled cell, and
    the entry a missing neighbour -1 wraps around to), 0 one not visited yet. Each step draws a
    direction uniformly and redraws when there is no neighbour that way (rejection), so the step
    goes to a uniformly random neighbour, visited or not.
    """
    k = opposite.shape[0]
    strided = strides.shape[0] > 0
    back = np.full(state.shape[0], NO_PARENT, dtype=np.uint8)
    state[start] = 1
    remaining -= 1
    cell = start
    t = 0
    while remaining > 0:
        d = int(rng.random() * k)
        nb = cell + strides[d] if strided else neighbors[cell, d]
        if state[nb] == 2:
            continue
        if state[nb] == 0:
            state[nb] = 1
            back[nb] = opposite[d]
            if order.shape[0]:
                t = note(order, t, cell_at(nb, width), back[nb])
            remaining -= 1
        cell = nb
    return back


@register("aldous-broder")
def carve(grid: Grid, rng: np.random.Generator, option: str | None = None,
          order: np.ndarray | None = None) -> np.ndarray:
    """Links of an Aldous-Broder maze over ``grid``, walking from a random enabled cell.

    Example
    -------
    >>> from blockmaze.grids import square_grid
    >>> links = carve(square_grid(4, 4), np.random.default_rng(0))
    >>> int(links.sum()) // 2   # a spanning tree of 16 cells has 15 passages
    15
    """
    start = random_enabled_cell(grid, rng)
    _, remaining = region_kernel(grid.neighbors, start)
    strides, width, visited, start = walk_layout(grid, start)
    back = aldous_broder_kernel(grid.neighbors, strides, width, visited * np.uint8(2), start, remaining,
                                grid.opposite, rng, carve_order(grid, False) if order is None else order)
    return links_from_parents(grid.neighbors, grid.opposite, cells_of(back, width))
