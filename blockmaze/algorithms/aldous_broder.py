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
from .common import (NO_PARENT, carve_order, links_from_parents, note, random_enabled_cell,
                     region_kernel)


@kernel(views=True)
def aldous_broder_kernel(neighbors, opposite, start, rng, order):
    """Walk from ``start`` until its whole region is visited; return the links.

    Each step draws a direction uniformly and redraws when there is no neighbour that way
    (rejection), so the step goes to a uniformly random neighbour, visited or not. A cell records
    the direction back to the cell it was first entered from in one byte; the links are written
    from those bytes afterwards in one sequential pass.
    """
    n, k = neighbors.shape
    _, remaining = region_kernel(neighbors, start)
    visited = np.zeros(n, dtype=np.uint8)
    back = np.full(n, NO_PARENT, dtype=np.uint8)
    visited[start] = 1
    remaining -= 1
    cell = start
    t = 0
    while remaining > 0:
        d = int(rng.random() * k)
        nb = neighbors[cell, d]
        if nb < 0:
            continue
        if visited[nb] == 0:
            visited[nb] = 1
            back[nb] = opposite[d]
            t = note(order, t, nb, back[nb])
            remaining -= 1
        cell = nb
    return links_from_parents(neighbors, opposite, back)


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
    return aldous_broder_kernel(grid.neighbors, grid.opposite, start, rng,
                                carve_order(grid, False) if order is None else order)
