"""Randomized Kruskal: join the cells through the grid's edges, taken in a uniformly random order.

Every pair of neighbouring cells is one edge. The edges are shuffled; an edge whose two cells are
still in different sets becomes a passage and the two sets merge (union-find). The result is the
minimum spanning tree of random edge weights: many short dead ends, no long corridors, and no
start cell the maze grows from. Runs on any grid kind and mask: it only reads the neighbour table;
where a mask splits the cells into separate regions, each region gets its own tree.

``kruskal:weave`` first lays crossings, the book's way to weave many: on a weave grid, every
crossing whose five cells are still in five different sets gets its
over-passage and its under-passage at once; then Kruskal goes on as usual. On other grids
there is nothing to lay and it is plain Kruskal.
"""

from __future__ import annotations

from ..support.kernels import kernel
import numpy as np

from ..errors import BlockmazeError
from ..grids import Grid
from ..grids.weave import WeaveGrid
from . import register
from .common import LOW_HALF, carve_order, join, link_edges, packed_edges, root



@kernel(views=True)
def kruskal_kernel(neighbors, opposite, enabled, rng, parent, joined, order):
    """Links of a random spanning forest: one tree per connected region of enabled cells.

    The edges are shuffled (Fisher–Yates, one ``rng.random()`` per edge), then taken in order.
    ``parent`` is the union-find forest (union by size, path halving). A few edges ahead, the
    loop reads their cells' ``parent`` entries (summed into ``prefetch``, returned so the reads
    are kept): the random reads of later edges are then already on their way from memory.
    Accepted edges are gathered at the front of the edge array and turned into links at the end.
    ``parent`` may hold ``joined`` joins made before (laid crossings).
    """
    n, k = neighbors.shape
    edges = packed_edges(neighbors)
    m = edges.shape[0]
    for i in range(m - 1):
        j = i + int(rng.random() * (m - i))
        e = edges[j]
        edges[j] = edges[i]
        edges[i] = e
    needed = -1 - joined
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


@kernel(views=True)
def lay_crossings(neighbors, opposite, crossings, ends, parent, links):
    """Link every crossing of ``ends`` (rows of :meth:`WeaveGrid.under_ends`) whose cell,
    over-neighbours and under-ends lie in five different sets; return the number of joins made.

    The crossings are taken in cell order, not shuffled: they were drawn at random already, and
    only the rare crossing that would close a loop with earlier ones is left out, so the order
    barely matters, while cell order keeps the memory reads in order (15x faster at 1000²).
    """
    m = ends.shape[0]
    joined = 0
    roots = np.empty(5, dtype=np.int64)
    cells = np.empty(5, dtype=np.int64)
    for i in range(m):
        cell, before, after = ends[i, 0], ends[i, 1], ends[i, 2]
        over = 1 if crossings[cell] == 1 else 0  # directions of the over-passage: east, west
        cells[0], cells[1], cells[2] = cell, neighbors[cell, over], neighbors[cell, over + 2]
        cells[3], cells[4] = before, after
        distinct = True
        for a in range(5):
            roots[a] = root(parent, cells[a])
            for b in range(a):
                if roots[a] == roots[b]:
                    distinct = False
        if not distinct:
            continue
        for d in (over, over + 2):
            join(parent, root(parent, cell), root(parent, neighbors[cell, d]))
            links[cell, d] = True
            links[neighbors[cell, d], opposite[d]] = True
        d = 1 + over  # south (over east-west) or east (over north-south): before -> after
        join(parent, root(parent, before), root(parent, after))
        links[before, d] = True
        links[after, opposite[d]] = True
        joined += 3
    return joined


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
    if option not in (None, "weave"):
        raise BlockmazeError(f"kruskal takes the option weave, got {option!r}")
    parent = np.full(grid.size, -1, dtype=np.int32)
    laid, joined = None, 0
    if option == "weave" and isinstance(grid, WeaveGrid):
        laid = np.zeros(grid.neighbors.shape, dtype=np.bool_)
        joined = lay_crossings(grid.neighbors, grid.opposite, grid.crossings, grid.under_ends(),
                               parent, laid)
    links, _ = kruskal_kernel(grid.neighbors, grid.opposite, grid.enabled, rng, parent, joined,
                              carve_order(grid, False) if order is None else order)
    return links if laid is None else links | laid
