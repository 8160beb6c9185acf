"""Breadth-first search, written once for the package's two kinds of graph.

- :func:`breadth_first`: cells and a neighbour table (``int32[n, k]``, -1 for none), the open
  ways given by ``links`` (a maze's passages) or all of them: maze distances and paths, mask
  regions, what an algorithm can reach, a dungeon plan's regions.
- :func:`block_breadth_first`: the blocks of a 1-, 2- or 3-D array, stepping by a table of
  offsets through the passable ones (no neighbour table built): lights and light levels, free
  regions of a dungeon layout, paths and reach inside rasterized cells, the ways into a stairwell.

Both fill ``distance`` (-1: not reached yet; a block or cell already reached is never entered
again) and ``queue`` (the cells in the order reached) and return how many were reached, so a
caller can walk, reset or label exactly those.

>>> import numpy as np
>>> passable = np.array([[1, 1, 0, 1], [0, 1, 1, 1]], bool)
>>> distance = np.full(8, -1, np.int32); queue = np.empty(8, np.int64); queue[0] = 0; distance[0] = 0
>>> block_breadth_first(passable.ravel(), np.array([1, 2, 4]), FOUR, distance, queue, 1, -1,
...                     NO_PARENTS, NO_LABELS)
6
>>> distance.reshape(2, 4).tolist()
[[0, 1, -1, 5], [-1, 2, 3, 4]]
"""

from __future__ import annotations

import numpy as np

from .kernels import kernel

# (y, z, x) steps: the four side neighbours in a plane (north, east, south, west) and the six of
# a volume (up, down, south, north, east, west)
FOUR = np.array([[0, -1, 0], [0, 0, 1], [0, 1, 0], [0, 0, -1]], dtype=np.int64)
SIX = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], dtype=np.int64)
# parents not kept (a kernel passes its own np.empty(0, np.int64): numba makes module arrays read-only)
NO_PARENTS = np.empty(0, dtype=np.int64)
NO_LABELS = np.empty(0, dtype=np.int32)  # steps not held within labels


@kernel(views=True)
def breadth_first(neighbors, links, start, distance, parents, queue):
    """A breadth-first search from ``start`` over the neighbour table; returns how many cells it
    reached, which are ``queue[:count]`` in the order reached.

    A cell steps to ``neighbors[cell, d]`` where that is a cell (>= 0) and the way is open:
    ``links[cell, d]``, or every way when ``links`` is empty (shape ``(0, k)``). ``distance`` gets
    each reached cell's steps from ``start``; a cell already >= 0 there is never entered, so
    searches from several starts share one array (``label_regions``). ``parents``, unless
    empty, gets each reached cell's predecessor (``start``: itself). ``queue`` has a place per cell.
    """
    k = neighbors.shape[1]
    every = links.shape[0] == 0
    keep_parents = parents.shape[0] > 0
    distance[start] = 0
    if keep_parents:
        parents[start] = start
    queue[0] = start
    head, tail = 0, 1
    while head < tail:
        cell = queue[head]
        head += 1
        for d in range(k):
            nb = neighbors[cell, d]
            if nb >= 0 and distance[nb] < 0 and (every or links[cell, d]):
                distance[nb] = distance[cell] + 1
                if keep_parents:
                    parents[nb] = cell
                queue[tail] = nb
                tail += 1
    return tail


@kernel(views=True)
def block_breadth_first(passable, shape, steps, distance, queue, sources, limit, parents, labels):
    """A breadth-first search over the blocks of an array of ``shape`` (y, z, x: a plan is
    ``(1, z, x)``), all flat in C order; returns how many blocks it reached, which are
    ``queue[:count]`` in the order reached.

    It starts from the ``sources`` blocks ``queue[:sources]``, whose ``distance`` the caller has
    set (usually 0), and steps by each row ``(dy, dz, dx)`` of ``steps`` in turn to a block inside
    the array that is ``passable`` and not yet reached (``distance`` -1), which gets its distance
    + 1. A block at distance ``limit`` steps no further (-1: no limit). ``parents``, unless empty,
    gets each reached block's predecessor; ``labels``, unless empty, keeps every step within a
    label (only to a block whose label is the same). ``queue`` has a place per block.
    """
    size_y, size_z, size_x = shape[0], shape[1], shape[2]
    keep_parents = parents.shape[0] > 0
    within = labels.shape[0] > 0
    head, tail = 0, sources
    while head < tail:
        p = queue[head]
        head += 1
        d = distance[p]
        if d == limit:
            continue
        row = p // size_x
        x = p - row * size_x
        y = row // size_z
        z = row - y * size_z
        for s in range(steps.shape[0]):
            ny, nz, nx = y + steps[s, 0], z + steps[s, 1], x + steps[s, 2]
            if 0 <= ny < size_y and 0 <= nz < size_z and 0 <= nx < size_x:
                q = p + (steps[s, 0] * size_z + steps[s, 1]) * size_x + steps[s, 2]
                if passable[q] and distance[q] < 0 and (not within or labels[q] == labels[p]):
                    distance[q] = d + 1
                    if keep_parents:
                        parents[q] = p
                    queue[tail] = q
                    tail += 1
    return tail
