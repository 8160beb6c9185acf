"""Binary tree: every cell opens a passage north or east, chosen at random.

The simplest perfect maze: each cell except the north-east corner links to exactly one of its north
and east neighbours, so following those links from anywhere leads to the north-east corner. The
north row and the east column are each one straight corridor, and every path drifts north-east.
Square grids without masks only.
"""

from __future__ import annotations

from ..kernels import kernel
import numpy as np

from ..grids import Grid
from . import register
from .common import carve_order, note


@kernel
def binary_tree_kernel(neighbors, opposite, north, east, rng, order):
    """Link each cell to its ``north`` or ``east`` neighbour (a coin toss if it has both); return the links.

    A cell with only one of the two links to that one without a draw; the corner with neither
    stays as it is. Cells are visited in index order. The coin tosses come 52 at a time from one
    ``rng.random()`` (its top 52 bits are fair and independent), which halves the time per cell.
    """
    n, k = neighbors.shape
    links = np.zeros((n, k), dtype=np.bool_)
    t = 0
    bits, left = 0, 0
    for i in range(n):
        up = neighbors[i, north]
        right = neighbors[i, east]
        if up >= 0 and right >= 0:
            if left == 0:
                bits, left = int(rng.random() * 4503599627370496.0), 52  # 2**52
            d = north if bits & 1 else east
            bits >>= 1
            left -= 1
        elif up >= 0:
            d = north
        elif right >= 0:
            d = east
        else:
            continue
        links[i, d] = True
        links[neighbors[i, d], opposite[d]] = True
        t = note(order, t, i, d)
    return links


@register("binary-tree")
def carve(grid: Grid, rng: np.random.Generator, option: str | None = None,
          order: np.ndarray | None = None) -> np.ndarray:
    """Links of a binary-tree maze over the square ``grid``.

    Example
    -------
    >>> from blockmaze.grids import square_grid
    >>> grid = square_grid(3, 4)
    >>> links = carve(grid, np.random.default_rng(0))
    >>> int(links.sum()) // 2   # a spanning tree of 12 cells has 11 passages
    11
    >>> bool(links[:3, grid.direction("east")].all())   # the north row is one corridor
    True
    """
    return binary_tree_kernel(grid.neighbors, grid.opposite, grid.direction("north"),
                              grid.direction("east"), rng,
                              carve_order(grid, False) if order is None else order)
