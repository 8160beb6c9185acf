"""Wilson's algorithm: loop-erased random walks grow a uniform spanning tree.

The tree starts as one random cell. From each cell not yet in the tree (in index order) a random
walk runs until it hits the tree; the walk with its loops erased joins the tree. Every spanning
tree of the region is equally likely (Wilson 1996) — the same distribution as Aldous-Broder, but
the walks only have to hit the tree, not cover the region, so it is several times faster. Runs on
any grid kind and on masked grids: it carves the region of its random first cell.
"""

from __future__ import annotations

from ..support.kernels import kernel
import numpy as np

from ..grids import Grid
from . import register
from .common import (NO_PARENT, carve_order, cell_at, cells_of, links_from_parents, note,
                     random_enabled_cell, region_kernel, walk_layout)


@kernel(views=True)
def wilson_kernel(neighbors, strides, width, state, root, opposite, rng, order):
    """Grow a uniform spanning tree of ``root``'s region from ``root``; return each position's
    direction towards the root (``NO_PARENT`` for the root and the positions outside).

    The walks run over the positions of :func:`~.common.walk_layout`: a position's neighbour is
    ``position + strides[d]`` on a square grid, ``neighbors[cell, d]`` elsewhere; ``state`` is 2
    where no walk may enter (outside the region, and the entry a missing neighbour -1 wraps around
    to), 1 in the tree, 0 not yet. The walk is stored as one byte per position, the direction it
    last left that position by: a loop is erased simply by leaving a cell again, which overwrites
    the byte. Following the bytes from the walk's first cell retraces the loop-erased path into
    the tree, after which every byte of a tree cell points towards the root. Steps draw a
    direction uniformly and redraw where there is no neighbour (rejection).
    """
    k = opposite.shape[0]
    strided = strides.shape[0] > 0
    step = np.full(state.shape[0], NO_PARENT, dtype=np.uint8)
    state[root] = 1
    t = 0
    for first in range(state.shape[0]):
        if state[first] != 0:
            continue
        cell = first
        while state[cell] == 0:
            d = int(rng.random() * k)
            nb = cell + strides[d] if strided else neighbors[cell, d]
            if state[nb] == 2:
                continue
            step[cell] = d
            cell = nb
        cell = first
        while state[cell] == 0:
            state[cell] = 1
            d = step[cell]
            if order.shape[0]:
                t = note(order, t, cell_at(cell, width), d)
            cell = cell + strides[d] if strided else neighbors[cell, d]
    return step


@register("wilson")
def carve(grid: Grid, rng: np.random.Generator, option: str | None = None,
          order: np.ndarray | None = None) -> np.ndarray:
    """Links of a Wilson maze over ``grid``, its tree rooted at a random enabled cell.

    Example
    -------
    >>> from blockmaze.grids import square_grid
    >>> links = carve(square_grid(4, 4), np.random.default_rng(0))
    >>> int(links.sum()) // 2   # a spanning tree of 16 cells has 15 passages
    15
    """
    root = random_enabled_cell(grid, rng)
    region, _ = region_kernel(grid.neighbors, root)
    strides, width, visited, root = walk_layout(grid, root, region.view(np.bool_))
    step = wilson_kernel(grid.neighbors, strides, width, visited * np.uint8(2), root, grid.opposite, rng,
                         carve_order(grid, False) if order is None else order)
    return links_from_parents(grid.neighbors, grid.opposite, cells_of(step, width))
