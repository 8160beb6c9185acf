"""Randomized Kruskal: join the cells through the grid's edges, taken in a uniformly random order.

Every pair of neighbouring cells is one edge. The edges are shuffled; an edge whose two cells are
still in different sets becomes a passage and the two sets merge (union-find). The result is the
minimum spanning tree of random edge weights: many short dead ends, no long corridors, and no
start cell the maze grows from. Runs on any grid kind and mask: it only reads the neighbour table;
where a mask splits the cells into separate regions, each region gets its own tree.
"""

from __future__ import annotations

from ..kernels import kernel
import numpy as np

from ..grids import Grid
from . import register
from .common import LOW_HALF, carve_order, join, link_edges, packed_edges, root



@kernel
def kruskal_kernel(neighbors, opposite, enabled, rng, order):
    """Links of a random spanning forest: one tree per connected region of enabled cells.

    The edges are shuffled (Fisher–Yates, one ``rng.random()`` per edge), then taken in order.
    ``parent`` is the union-find forest (union by size, path halving). A few edges ahead, the
    loop reads their cells' ``parent`` entries (summed into ``prefetch``, returned so the reads
    are kept): the random reads of later edges are then already on their way from memory.
    Accepted edges are gathered at the front of the edge array and turned into links at the end.
    """
    n, k = neighbors.shape
    edges = packed_edges(neighbors)
    m = edges.shape[0]
    for i in range(m - 1):
        j = i + int(rng.random() * (m - i))
        e = edges[j]
        edges[j] = edges[i]
        edges[i] = e
    parent = np.full(n, -1, dtype=np.int32)
    needed = -1
    for i in range(n):
        needed += 1 if enabled[i] else 0
    ahead = 8
    prefetch = 0
    count = 0
    for i in range(m):
        if count >= needed:
            break
        if i + ahead < m:
            f = edges[i + ahead]
            prefetch += parent[f >> 32] + parent[f & LOW_HALF]
        e = edges[i]
        a = root(parent, e >> 32)
        b = root(parent, e & LOW_HALF)
        if a != b:
            join(parent, a, b)
            edges[count] = e
            count += 1
    links = np.zeros((n, k), dtype=np.bool_)
    link_edges(neighbors, opposite, edges, count, links, order, 0)
    return links, prefetch


@register("kruskal")
def carve(grid: Grid, rng: np.random.Generator, option: str | None = None,
          order: np.ndarray | None = None) -> np.ndarray:
    """Links of a randomized-Kruskal maze over ``grid``.

    Example
    -------
    >>> from blockmaze.grids import square_grid
    >>> links = carve(square_grid(3, 3), np.random.default_rng(0))
    >>> int(links.sum()) // 2   # a spanning tree of 9 cells has 8 passages
    8
    """
    links, _ = kruskal_kernel(grid.neighbors, grid.opposite, grid.enabled, rng,
                              carve_order(grid, False) if order is None else order)
    return links
