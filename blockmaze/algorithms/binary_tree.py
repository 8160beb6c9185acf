"""Binary tree: every cell opens a passage north or east, chosen at random.

The simplest perfect maze: each cell except the north-east corner links to exactly one of its north
and east neighbours, so following those links from anywhere leads to the north-east corner. The
north row and the east column are each one straight corridor, and every path drifts north-east.
Square grids without masks only.
"""

from __future__ import annotations

import numpy as np

from ..grids import Grid
from ..support.kernels import SMALL_JOB, kernel
from . import register
from .common import NO_ORDER, carve_square_rows, coin, note, square_row_bands


def fresh_state() -> np.ndarray:
    """The draws carried from row to row, before the first: coin tosses left (bits, count)."""
    return np.zeros(2, dtype=np.float64)


@kernel(small=SMALL_JOB // 4, views=True)
def binary_tree_rows(first_row, state, rng, north, east, order, north_d, east_d):
    """Binary tree over the rows ``first_row, first_row + 1, ...`` of a square maze (as many as
    ``north`` has): sets ``north[i, c]`` / ``east[i, c]`` where that row's cell c opens north /
    east. Each cell links north or east (a coin toss if it has both, the north row and the east
    column have only one); the north-east corner links nowhere. Cells go in index order, recorded
    in ``order`` as ``(cell, north_d or east_d)``. The coin tosses come 52 at a time from one
    ``rng.random()`` (its top 52 bits are fair and independent), which halves the time per cell;
    ``state`` (:func:`fresh_state`) carries the ones left to the next call.
    """
    count, cols = north.shape
    bits, left = np.int64(state[0]), np.int64(state[1])
    t = 0
    record = order.shape[0] > 0
    for i in range(count):
        up = first_row + i > 0
        base = (first_row + i) * cols
        for c in range(cols):
            right = c < cols - 1
            if up and right:
                go_north, bits, left = coin(rng, bits, left)
            elif up or right:
                go_north = up
            else:
                continue
            if go_north:
                north[i, c] = True
                if record:
                    t = note(order, t, base + c, north_d)
            else:
                east[i, c] = True
                if record:
                    t = note(order, t, base + c, east_d)
    state[0], state[1] = bits, left


def row_bands(rows: int, cols: int, rng, at_once: int):
    """The passages of a binary-tree maze ``at_once`` rows at a time (see :func:`square_row_bands`)."""
    return square_row_bands(binary_tree_rows, fresh_state(), rows, cols, rng, at_once)


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
    return carve_square_rows(grid, binary_tree_rows, fresh_state(), rng,
                             NO_ORDER if order is None else order)
