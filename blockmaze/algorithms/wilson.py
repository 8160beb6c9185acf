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
from .common import carve_order, note, random_enabled_cell, region_kernel


@kernel(views=True)
def wilson_kernel(neighbors, opposite, root, rng, order):
    """Grow a uniform spanning tree of ``root``'s region from ``root``; return the links.

    The walk is stored as one byte per cell, the direction it last left that cell by: a loop is
    erased simply by leaving a cell again, which overwrites the byte. Following the bytes from the
    walk's first cell retraces the loop-erased path into the tree. A tree cell's byte is its
    direction towards the root, so the links are written from the bytes at the end in one pass.
    Steps draw a direction uniformly and redraw where there is no neighbour (rejection).
    """
    n, k = neighbors.shape
    none = 255
    region, _ = region_kernel(neighbors, root)
    in_tree = np.zeros(n, dtype=np.uint8)
    step = np.full(n, none, dtype=np.uint8)
    in_tree[root] = 1
    t = 0
    for first in range(n):
        if region[first] == 0 or in_tree[first] == 1:
            continue
        cell = first
        while in_tree[cell] == 0:
            d = int(rng.random() * k)
            nb = neighbors[cell, d]
            if nb < 0:
                continue
            step[cell] = d
            cell = nb
        cell = first
        while in_tree[cell] == 0:
            in_tree[cell] = 1
            t = note(order, t, cell, step[cell])
            cell = neighbors[cell, step[cell]]
    links = np.zeros((n, k), dtype=np.bool_)
    for i in range(n):
        d = step[i]
        if d != none and in_tree[i] == 1:
            links[i, d] = True
            links[neighbors[i, d], opposite[d]] = True
    return links


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
    return wilson_kernel(grid.neighbors, grid.opposite, root, rng,
                        carve_order(grid, False) if order is None else order)
