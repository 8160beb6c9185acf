"""Recursive division: a wall-adding algorithm that splits an open room again and again.

It starts from one open room — every pair of neighbouring cells linked — and divides it with a
straight wall, across the room's longer side at a random position, leaving a single random gap.
Both halves are divided the same way until every room is one cell wide. The result is perfect,
with long straight walls and a visible box-in-box structure. Square grids without masks only.
"""

from __future__ import annotations

from ..support.kernels import kernel
import numpy as np

from ..grids import Grid
from . import register
from .common import carve_order, note

STACK = 64  # rooms waiting; see the kernel: at most log2(cells) + 2 of them


@kernel(views=True)
def _corridor(order, t, cols, r0, c0, h, w, east_d, south_d):
    """Record the passages of a finished corridor (a room one cell wide or high) in ``order``."""
    for r in range(r0, r0 + h - 1):
        t = note(order, t, r * cols + c0, south_d)
    for c in range(c0, c0 + w - 1):
        t = note(order, t, r0 * cols + c, east_d)
    return t


@kernel(views=True)
def recursive_division_kernel(east, south, rows, cols, rng, order, east_d, south_d):
    """Divide the open ``rows`` x ``cols`` room (cell ``r * cols + c``) down to corridors.

    Fills ``east`` and ``south`` (bool per cell, all True on entry: open towards the next column /
    the next row; the caller makes them, so their size chooses the compiled or the Python form). A room
    taller than wide gets a horizontal wall, wider than tall a vertical one, a square room a coin
    toss; the wall goes between two random adjacent rows (columns) of the room and keeps one
    random gap. Rooms wait on an explicit stack, the larger half pushed first so the smaller is
    divided next: each room then waiting is at most half the size of the one below it, so the
    stack never holds more than about log2(cells) + 2 rooms. Rooms one cell wide or high are not
    pushed: a wall across them would be all gap, so they are finished corridors already.

    One ``rng.random()`` per room makes all its choices: ``u * m`` has a uniform whole part
    (a choice among m) and an independent uniform fraction, used for the next choice. A room of
    side m spends log2(m) of the 53 random bits on each choice, so the rest stay fair. Walls are
    one byte per cell in two small maps (not two writes into the link table), turned into links
    once at the end.
    """
    stack = np.empty((STACK, 4), dtype=np.int64)  # top row, left column, height, width
    top = 0
    t = 0
    if rows == 1 or cols == 1:
        t = _corridor(order, t, cols, 0, 0, rows, cols, east_d, south_d)
    if rows > 1 and cols > 1:
        stack[0, 0], stack[0, 1], stack[0, 2], stack[0, 3] = 0, 0, rows, cols
        top = 1
    while top > 0:
        top -= 1
        r0, c0, h, w = stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3]
        u = rng.random()
        if h > w:
            horizontal = True
        elif w > h:
            horizontal = False
        else:
            u *= 2.0
            horizontal = u < 1.0
            u -= 0.0 if horizontal else 1.0
        if horizontal:
            u *= h - 1
            s = 1 + int(u)  # the wall runs south of row r0 + s - 1
            gap = c0 + int((u - int(u)) * w)
            above = (r0 + s - 1) * cols
            for c in range(c0, c0 + w):
                south[above + c] = c == gap
            t = note(order, t, above + gap, south_d)
            r1, c1, h1, w1 = r0, c0, s, w
            r2, c2, h2, w2 = r0 + s, c0, h - s, w
        else:
            u *= w - 1
            s = 1 + int(u)  # the wall runs east of column c0 + s - 1
            gap = r0 + int((u - int(u)) * h)
            for r in range(r0, r0 + h):
                east[r * cols + c0 + s - 1] = r == gap
            t = note(order, t, gap * cols + c0 + s - 1, east_d)
            r1, c1, h1, w1 = r0, c0, h, s
            r2, c2, h2, w2 = r0, c0 + s, h, w - s
        if h1 * w1 < h2 * w2:  # push the larger half first, so the smaller is divided next
            r1, c1, h1, w1, r2, c2, h2, w2 = r2, c2, h2, w2, r1, c1, h1, w1
        if h1 > 1 and w1 > 1:
            stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3] = r1, c1, h1, w1
            top += 1
        else:
            t = _corridor(order, t, cols, r1, c1, h1, w1, east_d, south_d)
        if h2 > 1 and w2 > 1:
            stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3] = r2, c2, h2, w2
            top += 1
        else:
            t = _corridor(order, t, cols, r2, c2, h2, w2, east_d, south_d)


@register("recursive-division")
def carve(grid: Grid, rng: np.random.Generator, option: str | None = None,
          order: np.ndarray | None = None) -> np.ndarray:
    """Links of a recursive-division maze over the square ``grid``.

    Example
    -------
    >>> from blockmaze.grids import square_grid
    >>> links = carve(square_grid(4, 5), np.random.default_rng(0))
    >>> int(links.sum()) // 2   # a spanning tree of 20 cells has 19 passages
    19
    """
    rows, cols = grid.shape
    east, south = np.ones((rows, cols), dtype=bool), np.ones((rows, cols), dtype=bool)
    recursive_division_kernel(east.ravel(), south.ravel(), rows, cols, rng,
                              carve_order(grid, False) if order is None else order,
                              grid.direction("east"), grid.direction("south"))
    links = np.zeros((rows, cols, grid.degree), dtype=bool)
    links[:, :-1, grid.direction("east")] = links[:, 1:, grid.direction("west")] = east[:, :-1]
    links[:-1, :, grid.direction("south")] = links[1:, :, grid.direction("north")] = south[:-1]
    return links.reshape(grid.size, grid.degree)
