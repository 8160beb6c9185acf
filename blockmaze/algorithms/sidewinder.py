"""Sidewinder: row by row, runs of cells open eastward and each run opens once to the north.

Along a row, a run grows eastward until a coin toss (or the east edge) closes it; one random cell
of the closed run then opens a passage north. The north row, which has no north to open to, is one
long corridor. Every cell's path to the north row goes straight up through its run's opening, so
the maze has a vertical bias and no north-pointing dead ends. Square grids without masks only.
"""

from __future__ import annotations

import numpy as np

from ..grids import Grid
from ..support.kernels import SMALL_JOB, kernel
from . import register
from .common import NO_ORDER, carve_square_rows, coin, note, square_row_bands


def fresh_state() -> np.ndarray:
    """The draws carried from row to row, before the first: coin tosses left (bits, count), and
    the uniform ``u`` shared by the runs' choices with the bits of it spent (all: none drawn yet)."""
    return np.array([0.0, 0.0, 0.0, 53.0])


@kernel(small=SMALL_JOB // 4, views=True)
def sidewinder_rows(first_row, state, rng, north, east, order, north_d, east_d):
    """Sidewinder over the rows ``first_row, first_row + 1, ...`` of a square maze (as many as
    ``north`` has): sets ``north[i, c]`` / ``east[i, c]`` where that row's cell c opens north / east,
    recording each passage in ``order`` as ``(cell, north_d or east_d)``.

    ``first`` is the first cell of the current run, which is the cells ``first..c`` of the row.
    With an east neighbour and a north neighbour, a coin toss decides whether the run goes on; at
    the east edge it always ends, and in the north row (no north neighbour) it never ends before
    the east edge. A closed run opens north from one uniformly random cell of it. Coin tosses come
    52 at a time from one ``rng.random()`` (its top 52 bits are fair and independent); the runs'
    choices share draws too: ``u * m`` has a uniform whole part (the choice among m) and an
    independent uniform fraction for the next run, until 40 of the 53 bits are spent. ``state``
    (:func:`fresh_state`) carries both to the next call.
    """
    count, cols = north.shape
    bits, left, u, spent = np.int64(state[0]), np.int64(state[1]), state[2], np.int64(state[3])
    t = 0
    record = order.shape[0] > 0
    for i in range(count):
        has_north = first_row + i > 0
        base = (first_row + i) * cols
        first = 0
        for c in range(cols):
            right = c < cols - 1
            go_on = not has_north
            if right and has_north:
                go_on, bits, left = coin(rng, bits, left)
            if right and go_on:
                east[i, c] = True
                if record:
                    t = note(order, t, base + c, east_d)
                continue
            if has_north:
                size = c - first + 1
                need = 0
                while (1 << need) < size:
                    need += 1
                if spent + need > 40:
                    u, spent = rng.random(), 0
                u *= size
                cell = first + int(u)
                u -= int(u)
                spent += need
                north[i, cell] = True
                if record:
                    t = note(order, t, base + cell, north_d)
            first = c + 1
    state[0], state[1], state[2], state[3] = bits, left, u, spent


def row_bands(rows: int, cols: int, rng, at_once: int):
    """The passages of a sidewinder maze ``at_once`` rows at a time (see :func:`square_row_bands`)."""
    return square_row_bands(sidewinder_rows, fresh_state(), rows, cols, rng, at_once)


@register("sidewinder")
def carve(grid: Grid, rng: np.random.Generator, option: str | None = None,
          order: np.ndarray | None = None) -> np.ndarray:
    """Links of a sidewinder maze over the square ``grid``.

    Example
    -------
    >>> from blockmaze.grids import square_grid
    >>> grid = square_grid(3, 4)
    >>> links = carve(grid, np.random.default_rng(0))
    >>> int(links.sum()) // 2   # a spanning tree of 12 cells has 11 passages
    11
    >>> bool(links[:3, grid.direction("east")].all())   # the north row is one corridor
    True
    """
    return carve_square_rows(grid, sidewinder_rows, fresh_state(), rng,
                             NO_ORDER if order is None else order)
