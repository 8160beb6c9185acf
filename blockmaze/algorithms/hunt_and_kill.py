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
from .common import NO_PARENT, carve_order, links_from_parents, note, random_enabled_cell


@kernel(views=True)
def hunt_and_kill_kernel(neighbors, opposite, enabled, start, rng, order):
    """Carve a spanning tree of ``start``'s region; return the links.

    The hunt must find the lowest-index *huntable* cell: unvisited, with a visited neighbour. A
    plain scan from the lowest unvisited cell would pass again and again over unvisited cells that
    no visited cell touches yet (above a walk that started in the middle of the grid, say), so the
    kernel keeps the huntable cells as a bitset instead: when the walk stands on a cell it sets the
    bit of each unvisited neighbour, and a cell's bit is cleared when it is visited. The scan
    pointer ``p`` is a lower bound of the set bits — it moves back when a bit below it is set, so a
    cell that becomes huntable only later is never lost — and a hunt scans the bitset forward from
    ``p``, 64 cells a word. ``visited`` has one extra, always-visited entry at index n that a
    missing neighbour (-1) wraps around to, so the walk's neighbour scan has no branch; the hunt,
    which looks for *visited* neighbours, tests for -1 itself. Each cell records the direction back
    to the cell it was carved from in one byte, and the links are written from those bytes at the
    end in one pass.
    """
    n, k = neighbors.shape
    back = np.full(n, NO_PARENT, dtype=np.uint8)
    t = 0
    visited = np.ones(n + 1, dtype=np.uint8)
    for i in range(n):
        visited[i] = 0 if enabled[i] else 1
    words = (n + 63) >> 6
    huntable = np.zeros(words + 1, dtype=np.int64)  # the extra last word takes -1's no-op writes
    open_dirs = np.empty(k + 1, dtype=np.int64)
    one = np.int64(1)
    visited[start] = 1
    cell = start
    p = n
    while True:
        # kill: walk to random unvisited neighbours until there is none
        while True:
            count = 0
            for d in range(k):
                nb = neighbors[cell, d]
                fresh = 1 - visited[nb]
                huntable[nb >> 6] |= np.int64(fresh) << (nb & 63)
                if fresh and nb < p:
                    p = nb
                open_dirs[count] = d
                count += fresh
            if count == 0:
                break
            d = open_dirs[int(rng.random() * count)] if count > 1 else open_dirs[0]
            nb = neighbors[cell, d]
            back[nb] = opposite[d]
            t = note(order, t, nb, back[nb])
            visited[nb] = 1
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
            nb = neighbors[found, d]
            if nb >= 0 and visited[nb] == 1:
                open_dirs[count] = d
                count += 1
        d = open_dirs[int(rng.random() * count)] if count > 1 else open_dirs[0]
        back[found] = d
        t = note(order, t, found, d)
        visited[found] = 1
        huntable[w] = bits & ~(one << b)
        p = found
        cell = found
    return links_from_parents(neighbors, opposite, back)


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
    start = random_enabled_cell(grid, rng)
    return hunt_and_kill_kernel(grid.neighbors, grid.opposite, grid.enabled, start, rng,
                                carve_order(grid, False) if order is None else order)
