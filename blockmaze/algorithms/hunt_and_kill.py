"""Hunt-and-kill: random walks to unvisited cells, restarted by a scan for the next cell to join.

Kill: from the current cell, step to a random unvisited neighbour, carving as it goes. When the walk
is stuck, hunt: take the lowest-index unvisited cell that touches a visited one, link it to a random
visited neighbour and walk on from it. Mazes look like the backtracker's — long winding corridors,
few dead ends — without its stack. It always finishes: the hunt only ends when no unvisited cell of
the region touches the visited ones. Runs on any grid kind and on masked grids (the start cell's
region).
"""

from __future__ import annotations

from ..support.kernels import kernel
import numpy as np

from ..grids import Grid
from . import register
from .common import (NO_PARENT, carve_order, cell_at, cells_of, links_from_parents, note,
                     random_enabled_cell, walk_layout)


@kernel(views=True)
def hunt_and_kill_kernel(neighbors, strides, width, state, start, opposite, rng, order):
    """Carve a spanning tree of ``start``'s region; return each position's direction to its
    parent (``NO_PARENT`` for none).

    It runs over the positions of :func:`~.common.walk_layout` (in the cells' order): a
    position's neighbour is ``position + strides[d]`` on a square grid, ``neighbors[cell, d]``
    elsewhere; ``state`` is 0 for a cell not visited yet, 1 for a visited one, 2 for a position no
    walk may enter (the frame, a disabled cell, and the entry a missing neighbour -1 wraps to).

    The hunt must find the lowest-index *huntable* cell: unvisited, with a visited neighbour. A
    plain scan from the lowest unvisited cell would pass again and again over unvisited cells that
    no visited cell touches yet (above a walk that started in the middle of the grid, say), so the
    kernel keeps the huntable cells as a bitset instead: when the walk stands on a cell it sets the
    bit of each unvisited neighbour, and a cell's bit is cleared when it is visited. The scan
    pointer ``p`` is a lower bound of the set bits — it moves back when a bit below it is set, so a
    cell that becomes huntable only later is never lost — and a hunt scans the bitset forward from
    ``p``, 64 cells a word. Each cell records the direction back to the cell it was carved from
    in one byte, and the links are written from those bytes at the end in one pass.
    """
    k = opposite.shape[0]
    strided = strides.shape[0] > 0
    n = state.shape[0]
    back = np.full(n, NO_PARENT, dtype=np.uint8)
    t = 0
    words = (n + 63) >> 6
    huntable = np.zeros(words + 1, dtype=np.int64)  # the extra last word takes -1's no-op writes
    open_dirs = np.empty(k + 1, dtype=np.int64)
    one = np.int64(1)
    state[start] = 1
    cell = start
    p = n
    while True:
        # kill: walk to random unvisited neighbours until there is none
        while True:
            count = 0
            for d in range(k):
                nb = cell + strides[d] if strided else neighbors[cell, d]
                fresh = 1 if state[nb] == 0 else 0
                huntable[nb >> 6] |= np.int64(fresh) << (nb & 63)
                if fresh and nb < p:
                    p = nb
                open_dirs[count] = d
                count += fresh
            if count == 0:
                break
            d = open_dirs[int(rng.random() * count)] if count > 1 else open_dirs[0]
            nb = cell + strides[d] if strided else neighbors[cell, d]
            back[nb] = opposite[d]
            if order.shape[0]:
                t = note(order, t, cell_at(nb, width), back[nb])
            state[nb] = 1
            huntable[nb >> 6] &= ~(one << (nb & 63))
            cell = nb
        # hunt: the lowest-index huntable cell, at or after p
        w = p >> 6
        while w < words and huntable[w] == 0:
            w += 1
        if w >= words:
            break
        bits = huntable[w]
        b = 0
        while (bits >> b) & 1 == 0:
            b += 1
        found = (w << 6) + b
        count = 0
        for d in range(k):
            if state[found + strides[d] if strided else neighbors[found, d]] == 1:
                open_dirs[count] = d
                count += 1
        d = open_dirs[int(rng.random() * count)] if count > 1 else open_dirs[0]
        back[found] = d
        if order.shape[0]:
            t = note(order, t, cell_at(found, width), d)
        state[found] = 1
        huntable[w] = bits & ~(one << b)
        p = found
        cell = found
    return back


@register("hunt-and-kill")
def carve(grid: Grid, rng: np.random.Generator, option: str | None = None,
          order: np.ndarray | None = None) -> np.ndarray:
    """Links of a hunt-and-kill maze over ``grid``, its first walk from a random enabled cell.

    Example
    -------
    >>> from blockmaze.grids import square_grid
    >>> links = carve(square_grid(4, 4), np.random.default_rng(0))
    >>> int(links.sum()) // 2   # a spanning tree of 16 cells has 15 passages
    15
    """
    strides, width, visited, start = walk_layout(grid, random_enabled_cell(grid, rng))
    back = hunt_and_kill_kernel(grid.neighbors, strides, width, visited * np.uint8(2), start,
                                grid.opposite, rng, carve_order(grid, False) if order is None else order)
    return links_from_parents(grid.neighbors, grid.opposite, cells_of(back, width))
