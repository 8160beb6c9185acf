"""Sidewinder: row by row, runs of cells open eastward and each run opens once to the north.

Along a row, a run grows eastward until a coin toss (or the east edge) closes it; one random cell
of the closed run then opens a passage north. The north row, which has no north to open to, is one
long corridor. Every cell's path to the north row goes straight up through its run's opening, so
the maze has a vertical bias and no north-pointing dead ends. Square grids without masks only.
"""

from __future__ import annotations

from ..kernels import kernel
import numpy as np

from ..grids import Grid
from . import register
from .common import carve_order, note


@kernel
def sidewinder_kernel(neighbors, opposite, north, east, rng, order):
    """Carve runs in index order (west to east along each row, rows from north); return the links.

    ``first`` is the first cell of the current run; a run is the cells ``first..i`` (consecutive
    indices, because a square grid numbers each row from west to east). With an east neighbour and
    a north neighbour, a coin toss decides whether the run goes on; at the east edge it always
    ends, and in the north row (no north neighbour) it never ends before the east edge. A closed
    run opens north from one uniformly random cell of it. Coin tosses come 52 at a time from one
    ``rng.random()`` (its top 52 bits are fair and independent); the runs' choices share draws too:
    ``u * m`` has a uniform whole part (the choice among m) and an independent uniform fraction
    for the next run, until 40 of the 53 bits are spent.
    """
    n, k = neighbors.shape
    south, west = opposite[north], opposite[east]
    links = np.zeros((n, k), dtype=np.bool_)
    t = 0
    first = 0
    bits, left = 0, 0
    u, spent = 0.0, 53
    for i in range(n):
        right = neighbors[i, east]
        has_north = neighbors[i, north] >= 0
        go_on = not has_north
        if right >= 0 and has_north:
            if left == 0:
                bits, left = int(rng.random() * 4503599627370496.0), 52  # 2**52
            go_on = (bits & 1) == 1
            bits >>= 1
            left -= 1
        if right >= 0 and go_on:
            links[i, east] = True
            links[right, west] = True
            t = note(order, t, i, east)
            continue
        if has_north:
            size = i - first + 1
            need = 0
            while (1 << need) < size:
                need += 1
            if spent + need > 40:
                u, spent = rng.random(), 0
            u *= size
            cell = first + int(u)
            u -= int(u)
            spent += need
            links[cell, north] = True
            links[neighbors[cell, north], south] = True
            t = note(order, t, cell, north)
        first = i + 1
    return links


@register("sidewinder")
def carve(grid: Grid, rng: np.random.Generator, option: str | None = None,
          order: np.ndarray | None = None) -> np.ndarray:
    """Links of a sidewinder maze over the square ``grid``.

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
    return sidewinder_kernel(grid.neighbors, grid.opposite, grid.direction("north"),
                             grid.direction("east"), rng,
                             carve_order(grid, False) if order is None else order)
