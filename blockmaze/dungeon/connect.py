"""Walking on block plans, shared by the level styles: distances, regions, joining, endpoints.

A block is walkable where ``~SOLID[plan]``; a walker steps to the four side neighbours. Every
style ends with :func:`finish`: pockets too small to matter are filled, the rest are joined by
the shortest tunnels, and start and goal are put at the two ends of a long walk.

Example
-------
>>> plan = np.ones((5, 9), np.uint8)
>>> plan[1:4, 1:3] = 0; plan[1:4, 5:8] = 0
>>> plan, start, goal = finish(plan)
>>> int(region_labels(~SOLID[plan])[1].size), start, goal
(1, (3, 7), (3, 1))
"""

from __future__ import annotations

from ..support.breadth import FOUR, NO_LABELS, NO_PARENTS, block_breadth_first
from ..support.kernels import SMALL_JOB, compiled_pays, kernel
import numpy as np

from ..algorithms.common import join, root
from ..analysis import label_regions
from ..grids.square import square_grid
from ..materials import Material, SOLID

_AIR = np.uint8(Material.AIR)


def _plan_table(walkable: np.ndarray) -> np.ndarray:
    """The neighbour table of a plan's walkable blocks (each to its walkable side neighbours):
    a square grid of the blocks masked by ``walkable``, for :mod:`blockmaze.analysis`'s flood fill."""
    height, width = walkable.shape
    return square_grid(height, width, walkable).neighbors


@kernel(views=True, small=SMALL_JOB // 4)  # as when it took a 4-column neighbour table
def _label_blocks(walkable, shape):
    """``(labels, count)``: each walkable block's 4-connected region (0..count-1, numbered in
    raster order of their first block), -1 for the others; ``walkable`` flat, ``shape`` (1, z, x).

    One breadth-first search over the blocks per region (no neighbour table built)."""
    n = walkable.shape[0]
    distance = np.full(n, -1, dtype=np.int32)
    labels = np.full(n, -1, dtype=np.int32)
    queue = np.empty(n, dtype=np.int64)
    no_parents = np.empty(0, dtype=np.int64)
    no_labels = np.empty(0, dtype=np.int32)
    count = 0
    for first in range(n):
        if walkable[first] and distance[first] < 0:
            distance[first] = 0
            queue[0] = first
            reached = block_breadth_first(walkable, shape, FOUR, distance, queue, 1, -1, no_parents,
                                          no_labels)
            for i in range(reached):
                labels[queue[i]] = count
            count += 1
    return labels, count


def distances(walkable, start_z, start_x, blocked_z=-1, blocked_x=-1):
    """Walking distance in blocks from ``(start_z, start_x)`` to every block (-1 = unreachable).

    ``(blocked_z, blocked_x)``, when given, is treated as a wall (a locked door).

    >>> distances(np.array([[1, 1, 0, 1]], bool), 0, 0).tolist()
    [[0, 1, -1, -1]]
    """
    walkable = np.array(walkable, dtype=bool)
    if blocked_z >= 0:
        walkable[blocked_z, blocked_x] = False
    walkable[start_z, start_x] = True  # the walk starts here, whatever stands on it
    dist = np.full(walkable.size, -1, dtype=np.int32)
    queue = np.empty(walkable.size, dtype=np.int64)
    queue[0] = start_z * walkable.shape[1] + start_x
    dist[queue[0]] = 0
    block_breadth_first(walkable.ravel(), np.array((1, *walkable.shape), dtype=np.int64), FOUR, dist, queue, 1, -1,
                        NO_PARENTS, NO_LABELS)
    return dist.reshape(walkable.shape)


def region_labels(walkable):
    """``(labels, sizes)``: each 4-connected walkable region numbered from 0 in raster order of
    its first block (-1 = not walkable), and its size in blocks.

    >>> labels, sizes = region_labels(np.array([[1, 0, 1], [1, 0, 0]], bool))
    >>> labels.tolist(), sizes.tolist()
    ([[0, -1, 1], [0, -1, -1]], [2, 1])
    """
    walkable = np.asarray(walkable, dtype=bool)
    if compiled_pays(4 * walkable.size, SMALL_JOB):  # compiled, the blocks are walked directly
        labels, count = _label_blocks(walkable.ravel(), np.array((1, *walkable.shape), dtype=np.int64))
    else:  # as Python, a neighbour table's flood fill is the faster
        labels, count = label_regions(_plan_table(walkable), walkable.ravel())
    sizes = np.bincount(labels[labels >= 0], minlength=count).astype(np.int64)
    return labels.reshape(walkable.shape), sizes


@kernel
def _join_regions(plan, labels, regions):
    """Join every region through the inner walls with short tunnels; return the blocks opened.

    All regions grow together through the walls (a multi-source breadth-first search; the
    border stays rock). Where two fronts of regions not yet joined meet, the two search paths
    back to their regions become a tunnel (Kruskal's rule in the order the search meets them,
    which is shortest first to within a block); the search stops once all are joined.
    """
    height, width = plan.shape
    n = height * width
    label = labels.ravel()
    owner = label.copy()
    depth = np.zeros(n, dtype=np.int32)
    parent = np.full(n, -1, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    tail = 0
    for p in range(n):
        if owner[p] >= 0:
            queue[tail] = p
            tail += 1
    sets = np.full(regions, -1, dtype=np.int64)
    flat = plan.ravel()
    opened = 0
    joined = 1
    head = 0
    while head < tail and joined < regions:
        p = queue[head]
        head += 1
        z, x = p // width, p % width
        for q, ok in ((p - width, z > 1), (p + width, z < height - 2),
                      (p - 1, x > 1), (p + 1, x < width - 2)):
            if not ok:
                continue
            if owner[q] < 0:
                owner[q] = owner[p]
                depth[q] = depth[p] + 1
                parent[q] = p
                queue[tail] = q
                tail += 1
                continue
            ra, rb = root(sets, owner[p]), root(sets, owner[q])
            if ra == rb:
                continue
            join(sets, ra, rb)
            joined += 1
            for r in (p, q):
                while r >= 0 and label[r] < 0:
                    if flat[r] != 0:
                        flat[r] = 0
                        opened += 1
                    r = parent[r]
    return opened


def finish(plan: np.ndarray, start=None, min_pocket: int = 1):
    """Make ``plan`` one walkable region, in place; return ``(plan, start, goal)``.

    Regions smaller than ``min_pocket`` blocks are filled with WALL (never the one holding
    ``start``, nor the largest); the rest are joined by :func:`_join_regions`'s tunnels. If fewer
    than two blocks are walkable, a second is opened beside the first. ``start`` (a block, opened if it
    is a wall) is kept; without one, the start is one end of a double sweep (the block farthest
    from the first walkable block). The goal is the block farthest from the start (the first in
    raster order of equals).
    """
    if start is not None:
        plan[start] = _AIR if SOLID[plan[start]] else plan[start]
    labels, sizes = region_labels(~SOLID[plan])
    if sizes.size:
        keep = sizes >= min_pocket
        keep[int(np.argmax(sizes))] = True
        if start is not None:
            keep[labels[start]] = True
        if not keep.all():
            gone = (labels >= 0) & ~keep[np.maximum(labels, 0)]
            plan[gone] = np.uint8(Material.WALL)
            renumber = np.append(np.cumsum(keep) - 1, -1).astype(np.int32)  # label -1 stays -1
            labels = np.where(gone, np.int32(-1), renumber[labels])
            sizes = sizes[keep]
    if _open_two(plan, start) or not sizes.size:
        labels, sizes = region_labels(~SOLID[plan])
    if sizes.size > 1:
        _join_regions(plan, labels, sizes.size)
    walkable = ~SOLID[plan]
    if start is None:
        first = np.unravel_index(int(np.argmax(walkable)), plan.shape)
        start = _farthest(distances(walkable, *first))
    goal = _farthest(distances(walkable, *start))
    return plan, tuple(int(v) for v in start), goal


def _open_two(plan: np.ndarray, start) -> bool:
    """Open a second block beside the first walkable one (or ``start``, or two inner blocks)
    when fewer than two are walkable; True if anything was opened."""
    walkable = ~SOLID[plan]
    if int(walkable.sum()) >= 2:
        return False
    height, width = plan.shape
    anchor = start if start is not None else (
        tuple(np.argwhere(walkable)[0]) if walkable.any() else (1, 1))
    plan[anchor] = _AIR if SOLID[plan[anchor]] else plan[anchor]
    for dz, dx in ((0, 1), (1, 0), (0, -1), (-1, 0)):
        z, x = anchor[0] + dz, anchor[1] + dx
        if 0 < z < height - 1 and 0 < x < width - 1:
            plan[z, x] = _AIR
            return True
    return True


def _farthest(dist: np.ndarray) -> tuple[int, int]:
    """The block with the largest distance (the first in raster order of equals)."""
    z, x = np.unravel_index(int(np.argmax(dist)), dist.shape)
    return int(z), int(x)


def degrees(walkable: np.ndarray) -> np.ndarray:
    """How many walkable side neighbours each block has (0 outside the walkable blocks).

    >>> degrees(np.array([[1, 1, 0], [0, 1, 1]], bool)).tolist()
    [[1, 2, 0], [0, 2, 1]]
    """
    w = walkable.astype(np.int8)
    count = np.zeros(walkable.shape, dtype=np.int8)
    count[1:] += w[:-1]
    count[:-1] += w[1:]
    count[:, 1:] += w[:, :-1]
    count[:, :-1] += w[:, 1:]
    return np.where(walkable, count, 0)
