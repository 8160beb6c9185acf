"""Pieces several algorithms share: a start cell, union-find, edge lists, region search."""

from __future__ import annotations

from collections.abc import Iterator

from ..support.breadth import breadth_first
from ..support.kernels import kernel
import numpy as np

from ..grids import Grid

NO_PARENT = 255  # a parent direction (uint8) meaning: no parent, the root or an unvisited cell
LOW_HALF = (1 << 32) - 1  # the low half of a packed edge: its second cell


def random_enabled_cell(grid: Grid, rng: np.random.Generator) -> int:
    """A uniformly random enabled cell (one draw of ``rng``).

    >>> from blockmaze.grids import square_grid
    >>> 0 <= random_enabled_cell(square_grid(2, 2), np.random.default_rng(0)) < 4
    True
    """
    if grid.enabled.all():  # the same draw, without listing a million cells first
        return int(rng.random() * grid.size)
    cells = np.flatnonzero(grid.enabled)
    return int(cells[int(rng.random() * cells.size)])


@kernel(views=True)
def root(parent, a):
    """Root of ``a``'s set; ``parent[x] < 0`` marks a root, holding minus its set's size.

    Halves the path on the way (each visited cell then points to its grandparent).
    """
    while parent[a] >= 0:
        p = parent[a]
        g = parent[p]
        if g < 0:
            return p
        parent[a] = g
        a = g
    return a


@kernel(views=True)
def join(parent, a, b):
    """Merge the sets whose roots are ``a`` and ``b`` (a != b): the smaller goes under the larger."""
    if parent[a] > parent[b]:
        a, b = b, a
    parent[a] += parent[b]
    parent[b] = a


@kernel(views=True)
def packed_edges(neighbors):
    """Every neighbour pair once, as ``cell << 32 | neighbour`` with neighbour > cell.

    Built in one pass over the table, without temporaries.
    """
    n, k = neighbors.shape
    m = 0
    for c in range(n):
        for d in range(k):
            m += 1 if neighbors[c, d] > c else 0
    edges = np.empty(m, dtype=np.int64)
    i = 0
    for c in range(n):
        for d in range(k):
            nb = neighbors[c, d]
            if nb > c:
                edges[i] = (np.int64(c) << 32) | nb
                i += 1
    return edges


def carve_order(grid: Grid, record: bool) -> np.ndarray:
    """The array a kernel records its carve order in: a row ``(cell, direction)`` per passage
    in the order the kernel opens them (rows it does not fill stay -1), or with ``record`` False
    an empty one, which records nothing.

    >>> from blockmaze.grids import square_grid
    >>> carve_order(square_grid(2, 2), True).shape, carve_order(square_grid(2, 2), False).shape
    ((4, 2), (0, 2))
    """
    return np.full((grid.size if record else 0, 2), -1, dtype=np.int32)


@kernel(views=True)
def note(order, t, cell, d):
    """Record the ``t``-th passage opened, from ``cell`` towards ``d``, in ``order`` (if it has
    room: an empty ``order`` records nothing); return t + 1."""
    if t < order.shape[0]:
        order[t, 0] = cell
        order[t, 1] = d
    return t + 1


@kernel(views=True)
def coin(rng, bits, left):
    """A fair coin toss from ``bits``, of which ``left`` are unused: ``(heads, bits, left)`` after
    it. With none left, 52 more come from one ``rng.random()`` (its top 52 bits are fair and
    independent), so a row kernel draws once per 52 tosses."""
    if left == 0:
        bits, left = np.int64(rng.random() * 4503599627370496.0), 52  # 2**52
    return (bits & 1) == 1, bits >> 1, left - 1


@kernel(views=True)
def link_edges(neighbors, opposite, edges, count, links, order, t):
    """Open the passage of each of the first ``count`` packed edges in ``links``, recording
    them in ``order`` from its row ``t`` on."""
    k = neighbors.shape[1]
    for i in range(count):
        cell = edges[i] >> 32
        nb = edges[i] & LOW_HALF
        for d in range(k):
            if neighbors[cell, d] == nb:
                links[cell, d] = True
                links[nb, opposite[d]] = True
                t = note(order, t, cell, d)
                break


@kernel
def region_kernel(neighbors, start):
    """Mark the cells reachable from ``start`` through the neighbour table; return ``(marks, count)``.

    ``marks`` is a uint8 array, 1 for a cell of the region; ``count`` is the region's size
    (:func:`~blockmaze.support.breadth.breadth_first`). Aldous-Broder needs the count to know when to
    stop, Wilson the marks to know where to start walks.
    """
    n, k = neighbors.shape
    distance = np.full(n, -1, dtype=np.int32)
    count = breadth_first(neighbors, np.zeros((0, k), dtype=np.bool_), start, distance,
                          np.empty(0, dtype=np.int32), np.empty(n, dtype=np.int32))
    return (distance >= 0).astype(np.uint8), count


@kernel(views=True)
def links_from_parents(neighbors, opposite, back):
    """The links of a tree given each cell's direction to its parent (``NO_PARENT`` for none).

    Kernels that grow a tree record one byte per cell while they walk and write the links in this
    one sequential pass at the end, instead of two scattered writes per step.
    """
    n, k = neighbors.shape
    links = np.zeros((n, k), dtype=np.bool_)
    for i in range(n):
        d = back[i]
        if d != NO_PARENT:
            links[i, d] = True
            links[neighbors[i, d], opposite[d]] = True
    return links


NO_ORDER = np.empty((0, 2), dtype=np.int32)  # an order that records nothing (streamed rows)


def carve_square_rows(grid: Grid, carve_rows, state: np.ndarray, rng, order: np.ndarray) -> np.ndarray:
    """Links of the square ``grid`` carved by a row kernel over all its rows in one call.

    ``carve_rows(first_row, state, rng, north, east, order, north_d, east_d)`` opens the north
    and east passages of the rows it is given (here views of the links); the south and west
    halves of each passage follow here. Streams run the same kernel band by band
    (:func:`square_row_bands`), so both give one maze for a seed.

    >>> from blockmaze.grids import square_grid
    >>> from blockmaze.algorithms.binary_tree import binary_tree_rows, fresh_state
    >>> grid = square_grid(2, 2)
    >>> links = carve_square_rows(grid, binary_tree_rows, fresh_state(), np.random.default_rng(0), NO_ORDER)
    >>> links[[0, 1], 1].tolist(), bool(links[1, 3])    # the north row is a corridor, both halves open
    ([True, False], True)
    """
    rows, cols = grid.shape
    north, east = grid.direction("north"), grid.direction("east")
    links = np.zeros((grid.size, len(grid.directions)), dtype=np.bool_)
    cells = links.reshape(rows, cols, -1)
    carve_rows(0, state, rng, cells[..., north], cells[..., east], order, north, east)
    cells[:-1, :, grid.direction("south")] = cells[1:, :, north]
    cells[:, 1:, grid.direction("west")] = cells[:, :-1, east]
    return links


def square_row_bands(carve_rows, state: np.ndarray, rows: int, cols: int, rng,
                     at_once: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The passages of a rows x cols square maze carved by a row kernel (see
    :func:`carve_square_rows`), ``at_once`` rows at a time: ``(north, east)`` bool arrays."""
    for first in range(0, rows, at_once):
        count = min(at_once, rows - first)
        north = np.zeros((count, cols), dtype=np.bool_)
        east = np.zeros((count, cols), dtype=np.bool_)
        carve_rows(first, state, rng, north, east, NO_ORDER, 0, 1)
        yield north, east


NO_STRIDES = np.empty(0, dtype=np.int64)  # a walk that reads the neighbour table


def walk_layout(grid: Grid, start: int, enabled: np.ndarray | None = None
                ) -> tuple[np.ndarray, int, np.ndarray, int]:
    """``(strides, width, visited, start)``: the positions a walking kernel visits ``grid``'s
    cells by, and ``start``'s position (``enabled``: the cells a walk may enter, if not those of
    the grid).

    On a square grid a position is a cell of the grid framed by a row and column of visited
    positions (disabled cells visited too), ``width`` = columns + 2 positions a row, and the
    neighbour in direction d is ``position + strides[d]``: a walk that never reads the neighbour
    table, whose rows (16 bytes a cell) would otherwise come through the cache with every step.
    Elsewhere positions are cells, ``strides`` is empty, ``width`` 0, the neighbour is
    ``neighbors[cell, d]``, and ``visited`` has one extra, always-visited entry at index n, which
    a missing neighbour (-1) wraps around to. :func:`cells_of` turns positions back into cells.

    >>> from blockmaze.grids import square_grid
    >>> strides, width, visited, start = walk_layout(square_grid(1, 2), 1)
    >>> strides.tolist(), width, visited.tolist(), start
    ([-4, 1, 4, -1], 4, [1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1], 6)
    """
    enabled = grid.enabled if enabled is None else enabled
    if grid.kind != "square":
        return NO_STRIDES, 0, np.append(~enabled, True).view(np.uint8), start
    rows, cols = grid.shape
    width = cols + 2
    visited = np.ones((rows + 2, width), dtype=np.uint8)
    visited[1:-1, 1:-1] = ~enabled.reshape(rows, cols)
    start = position_at(start, width)
    return np.array([-width, 1, width, -1], dtype=np.int64), width, visited.ravel(), start


def cells_of(values: np.ndarray, width: int) -> np.ndarray:
    """Per-position ``values`` of a :func:`walk_layout` (of a square grid when ``width``), per
    cell: the frame dropped.

    >>> cells_of(np.arange(12), 4).tolist(), cells_of(np.arange(3), 0).tolist()
    ([5, 6], [0, 1, 2])
    """
    return values.reshape(-1, width)[1:-1, 1:-1].ravel() if width else values


@kernel(views=True)
def position_at(cell, width):
    """The :func:`walk_layout` position of ``cell`` (``width`` 0: the cell is the position); the
    inverse of :func:`cell_at`.

    >>> position_at(1, 4), cell_at(position_at(1, 4), 4)
    (6, 1)
    """
    columns = width - 2
    return (cell // columns + 1) * width + cell % columns + 1 if width else cell


@kernel(views=True)
def cell_at(position, width):
    """The cell at a :func:`walk_layout` position (``width`` 0: the position is the cell)."""
    return position - width - 1 - 2 * (position // width - 1) if width else position
