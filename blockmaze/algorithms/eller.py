"""Eller's algorithm: the maze is built one row at a time, keeping only which cells are joined.

On a square grid, row by row from the top: a cell of the row that no passage reached yet starts
its own set; neighbouring cells of the row in different sets are joined at random (in the last
row, always); then every set opens at least one passage down into the next row (a random one of
its cells), and more at random. Every set so reaches the next row, and the last row joins them
all: a perfect maze with a vertical grain (about 37% of the passages run east-west, against
half for most algorithms) and a long corridor along the bottom. Only one row of sets is needed
at a time, which is the algorithm's charm; here the sets live in a union-find over all cells.

Generalised to any grid through the neighbour table:

- the cells are taken in index order in "rows" of ``W = grid.shape[-1]`` cells (row r is cells
  ``r*W`` to ``r*W + W - 1``; on a square grid, the real row r);
- "in the same row" and "down" are read off the cell indices: a neighbour is in the same row, or
  down when its index lies in a later row (on a torus the north edge of row 0 leads "down" to
  the last row; on a layered grid the level below is down too);
- a set that chooses to go down picks one of its cells that has a down neighbour, then one of
  that cell's down neighbours not yet in the set (if all are, the set already reaches down);
- a set with no down neighbour at all simply continues;
- the last row, where every pair of neighbours in different sets is joined, is the row of the
  last enabled cell;
- every passage joins two different sets (union-find over all cells), so no loop can form;
- a mask, a hole or a topology where the next row is missing can leave several sets at the end:
  a last cleanup pass joins them through the remaining edges in a random order (as Kruskal does).
  On an unmasked square grid the cleanup finds nothing to do: the result is plain Eller. On grids
  whose index rows are not the grid's own rows (a polar grid) or where half the cells of a row
  have no cell below (a triangle grid), sets are often stranded and the cleanup does a share of
  the joining.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..grids import Grid
from ..support.kernels import kernel
from . import register
from .common import carve_order, join, link_edges, note, root


_LOW = (1 << 32) - 1  # the low half of a packed edge: its second cell


@kernel(views=True)
def _link(neighbors, opposite, links, parent, cell, d, a, b, order, t):
    """Open the passage from ``cell`` towards ``d`` (the ``t``-th, recorded in ``order``) and
    merge the sets with roots a and b."""
    note(order, t, cell, d)
    links[cell, d] = True
    links[neighbors[cell, d], opposite[d]] = True
    join(parent, a, b)


@kernel(inline="always", views=True)
def eller_rows(neighbors, opposite, width, first_row, end_row, last_row, parent, links, rng,
               order, t):
    """Eller over the rows ``first_row..end_row - 1`` of the cells, taken in rows of ``width``;
    opens passages in ``links`` (the ``t``-th on, recorded in ``order``) and returns how many
    have been opened then. Row ``last_row`` joins every pair of its neighbours in different sets.

    Sets are a union-find forest over the cells (``parent``, as in Kruskal). For each row: the
    same-row pairs (each pair once, from its lower index), then the down passages. ``candidates``
    lists the row's cells that have a down neighbour, with their set's root in ``roots``; per
    root, ``seen`` counts its candidates and ``chosen`` keeps one of them picked uniformly
    (reservoir sampling), which goes down for sure; every other candidate goes down with
    probability 1/2.
    """
    n, k = neighbors.shape
    seen = np.zeros(n, dtype=np.int32)
    chosen = np.zeros(n, dtype=np.int32)
    candidates = np.empty(width, dtype=np.int32)
    roots = np.empty(width, dtype=np.int32)
    down = np.empty(k, dtype=np.int64)
    for r in range(first_row, end_row):
        lo = r * width
        hi = min(lo + width, n)
        last = r == last_row
        # join neighbours within the row
        for c in range(lo, hi):
            for d in range(k):
                nb = neighbors[c, d]
                if nb > c and nb < hi:
                    a = root(parent, c)
                    b = root(parent, nb)
                    if a != b and (last or rng.random() < 0.5):
                        _link(neighbors, opposite, links, parent, c, d, a, b, order, t)
                        t += 1
        # each set's candidates for going down; one per set is chosen
        count = 0
        for c in range(lo, hi):
            for d in range(k):
                if neighbors[c, d] >= hi:
                    a = root(parent, c)
                    candidates[count] = c
                    roots[count] = a
                    seen[a] += 1
                    if seen[a] == 1 or rng.random() * seen[a] < 1.0:
                        chosen[a] = count
                    count += 1
                    break
        # go down: the chosen candidate of each set, and each other one with probability 1/2
        for i in range(count):
            if chosen[roots[i]] != i and rng.random() >= 0.5:
                continue
            c = candidates[i]
            a = root(parent, c)
            options = 0
            for d in range(k):
                nb = neighbors[c, d]
                if nb >= hi and root(parent, nb) != a:
                    down[options] = d
                    options += 1
            if options == 0:
                continue  # every down neighbour is in the set already: it reaches down
            d = down[int(rng.random() * options)] if options > 1 else down[0]
            _link(neighbors, opposite, links, parent, c, d, a, root(parent, neighbors[c, d]),
                  order, t)
            t += 1
        for i in range(count):
            seen[roots[i]] = 0
    return t


@kernel(views=True)
def eller_kernel(neighbors, opposite, enabled, width, rng, order):
    """Links of an Eller maze over cells taken in rows of ``width``; see the module docstring.

    :func:`eller_rows` over every row, then the cleanup if sets are left apart. Returns the
    links and whether the cleanup pass had to join sets.
    """
    n, k = neighbors.shape
    links = np.zeros((n, k), dtype=np.bool_)
    parent = np.full(n, -1, dtype=np.int32)
    needed = -1
    last_cell = -1
    for i in range(n):
        if enabled[i]:
            needed += 1
            last_cell = i
    rows = (n + width - 1) // width
    joined = eller_rows(neighbors, opposite, width, 0, rows, last_cell // width, parent, links, rng,
                        order, 0)
    cleaned = joined < needed
    if cleaned:
        _cleanup(neighbors, opposite, parent, links, rng, order, joined)
    return links, cleaned


@kernel(views=True)
def eller_band(neighbors, opposite, width, count, last_row, labels, rng, links):
    """Eller over the first ``count`` rows of a band of a square maze (``neighbors``: the band's
    table, one row more than ``count`` unless the band ends the maze, whose row ``last_row`` is
    the maze's last, or -1). ``labels`` comes from the band before: ``labels[c]`` is the first
    cell of the band's first row in cell c's set; it leaves the same for the row after the band.

    The union-find forest covers one band; the sets carried in from the rows above are joined
    first, so the band makes the choices (and draws) the whole maze's forest would.
    """
    parent = np.full(neighbors.shape[0], -1, dtype=np.int32)
    for c in range(width):
        a = root(parent, labels[c])
        b = root(parent, c)
        if a != b:
            join(parent, a, b)
    no_order = np.empty((0, 2), dtype=np.int32)
    eller_rows(neighbors, opposite, width, 0, count, last_row, parent, links, rng, no_order, 0)
    if neighbors.shape[0] > count * width:
        first = np.full(neighbors.shape[0], -1, dtype=np.int32)
        for c in range(width):
            a = root(parent, count * width + c)
            if first[a] < 0:
                first[a] = c
            labels[c] = first[a]


def row_bands(rows: int, cols: int, rng, at_once: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The passages of a rows x cols Eller maze on a square grid, ``at_once`` rows at a time:
    ``(north, east)`` bool arrays, as :func:`eller_kernel` opens them for the whole grid.

    Each band is a small square grid of its rows and the next one, which receives the passages
    down; the sets of that row and those passages are carried to the next band.

    >>> from blockmaze import generate
    >>> north, east = next(row_bands(3, 4, np.random.default_rng(7), 2))
    >>> links = generate((3, 4), "eller", 7).links.reshape(3, 4, 4)
    >>> bool((north == links[:2, :, 0]).all() and (east == links[:2, :, 1]).all())
    True
    """
    from ..grids.square import EAST, NORTH, square_grid

    labels = np.arange(cols, dtype=np.int32)
    south = np.zeros(cols, dtype=np.bool_)  # the passages down into the band's first row
    band = None
    for first in range(0, rows, at_once):
        count = min(at_once, rows - first)
        size = count + (first + count < rows)
        if band is None or band.shape[0] != size:  # every band but the last has the same table
            band = square_grid(size, cols)
        links = np.zeros(band.neighbors.shape, dtype=np.bool_)
        last_row = rows - 1 - first if first + count == rows else -1
        eller_band(band.neighbors, band.opposite, cols, count, last_row, labels, rng, links)
        cells = links.reshape(-1, cols, 4)
        north = cells[:count, :, NORTH].copy()
        north[0] = south
        south = cells[count, :, NORTH].copy() if band.shape[0] > count else south
        yield north, cells[:count, :, EAST].copy()


@kernel(views=True)
def _cleanup(neighbors, opposite, parent, links, rng, order, t):
    """Join the remaining sets through the edges between them, in a random order; return joins.

    Only edges between different sets are listed (sets only merge, so no other edge can ever
    join two). They are shuffled lazily: step i swaps a random later edge into place and takes
    it; the accepted ones are gathered at the front and opened at the end.
    """
    n, k = neighbors.shape
    m = 0
    for c in range(n):
        for d in range(k):
            nb = neighbors[c, d]
            if nb > c and root(parent, c) != root(parent, nb):
                m += 1
    edges = np.empty(m, dtype=np.int64)
    m = 0
    for c in range(n):
        for d in range(k):
            nb = neighbors[c, d]
            if nb > c and root(parent, c) != root(parent, nb):
                edges[m] = (np.int64(c) << 32) | nb
                m += 1
    count = 0
    for i in range(m):
        j = i + int(rng.random() * (m - i))
        e = edges[j]
        edges[j] = edges[i]
        a = root(parent, e >> 32)
        b = root(parent, e & _LOW)
        if a != b:
            join(parent, a, b)
            edges[count] = e
            count += 1
    link_edges(neighbors, opposite, edges, count, links, order, t)
    return count


@register("eller")
def carve(grid: Grid, rng: np.random.Generator, option: str | None = None,
          order: np.ndarray | None = None) -> np.ndarray:
    """Links of an Eller maze over ``grid``, rows of ``grid.shape[-1]`` cells from the top.

    Example
    -------
    >>> from blockmaze.grids import square_grid
    >>> links = carve(square_grid(3, 3), np.random.default_rng(0))
    >>> int(links.sum()) // 2   # a spanning tree of 9 cells has 8 passages
    8
    """
    links, _ = eller_kernel(grid.neighbors, grid.opposite, grid.enabled, grid.shape[-1], rng,
                            carve_order(grid, False) if order is None else order)
    return links
