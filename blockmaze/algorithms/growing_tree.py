"""Growing tree: a list of active cells, and a rule for which one grows next.

Start with one random cell in the active list. Repeatedly pick an active cell by the rule: if it
has unvisited neighbours, carve to a random one and make that one active; if not, drop it from
the list. The rule sets the texture:

- ``newest``: always the newest active cell — a depth-first search: long winding corridors,
  few dead ends (the same draws as ``backtracker``, so the same maze for the same seed);
- ``random``: a uniformly random active cell — short corridors radiating from the start, many
  dead ends;
- ``oldest``: always the oldest active cell — a breadth-first spread: each cell opens to all
  its free neighbours before the next one does, which gives dead-straight corridors running
  away from the start's row and column, hardly a turn, few dead ends (a curiosity more than a
  puzzle);
- a number R in [0, 1]: the newest cell with probability R, else a random one. Without an option,
  R = 0.5: winding corridors with frequent short side branches.

Runs on any grid kind and mask: it only reads the neighbour table.
"""

from __future__ import annotations

from ..support.kernels import kernel
import numpy as np

from ..errors import BlockmazeError
from ..grids import Grid
from . import register
from .common import (NO_PARENT, carve_order, cell_at, cells_of, links_from_parents, note,
                     random_enabled_cell, walk_layout)

_OLDEST = -1.0  # the kernel's rule value for "always the oldest"


def parse_rule(option: str | None) -> float:
    """The probability of taking the newest cell for ``option`` (-1.0 for ``oldest``).

    >>> parse_rule(None), parse_rule("newest"), parse_rule("random"), parse_rule("0.25")
    (0.5, 1.0, 0.0, 0.25)
    >>> parse_rule("1.5")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: growing-tree option must be newest, random, oldest or a number from 0 to 1, got '1.5'
    """
    if option is None:
        return 0.5
    named = {"newest": 1.0, "random": 0.0, "oldest": _OLDEST}
    text = option.strip().lower()
    if text in named:
        return named[text]
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0.0 <= value <= 1.0:  # also refuses nan
        raise BlockmazeError(
            "growing-tree option must be newest, random, oldest or a number from 0 to 1, "
            f"got {option!r}"
        )
    return value


@kernel(views=True)
def growing_tree_kernel(neighbors, strides, width, visited, start, opposite, rng, newest, order):
    """Each position's direction back to its parent in a growing-tree spanning tree of
    ``start``'s region, over the positions of :func:`~.common.walk_layout` (``visited``: 1 where
    no walk may enter; a position's neighbour is ``position + strides[d]`` on a square grid,
    ``neighbors[cell, d]`` elsewhere).

    ``newest`` is the probability of picking the newest active cell (else a uniformly random
    one), or -1 for always the oldest. Active cells live in ``active[head:tail]``, oldest first;
    new cells go at the tail. Dropping a cell is O(1) in every rule: the newest is dropped by
    moving ``tail`` back, the oldest by moving ``head`` on, and any other by moving the oldest
    cell into its slot (the order of the newest cells, which the rule looks at, is kept).
    """
    k = opposite.shape[0]
    strided = strides.shape[0] > 0
    back = np.full(visited.shape[0], NO_PARENT, dtype=np.uint8)
    t = 0
    active = np.empty(visited.shape[0], dtype=np.int32)
    open_dirs = np.empty(k, dtype=np.int64)
    oldest = newest < 0.0
    always_newest = newest >= 1.0
    never_newest = newest <= 0.0
    visited[start] = 1
    active[0] = start
    head, tail = 0, 1
    while head < tail:
        if oldest:
            slot = head
        elif always_newest or (not never_newest and rng.random() < newest):
            slot = tail - 1
        else:
            slot = head + int(rng.random() * (tail - head))
        cell = active[slot]
        count = 0
        for d in range(k):
            open_dirs[count] = d
            count += 1 - visited[cell + strides[d] if strided else neighbors[cell, d]]
        if count == 0:
            if slot == tail - 1:
                tail -= 1
            else:
                active[slot] = active[head]
                head += 1
            continue
        d = open_dirs[int(rng.random() * count)] if count > 1 else open_dirs[0]
        nb = cell + strides[d] if strided else neighbors[cell, d]
        visited[nb] = 1
        back[nb] = opposite[d]
        if order.shape[0]:
            t = note(order, t, cell_at(nb, width), back[nb])
        active[tail] = nb
        tail += 1
    return back


@register("growing-tree")
def carve(grid: Grid, rng: np.random.Generator, option: str | None = None,
          order: np.ndarray | None = None) -> np.ndarray:
    """Links of a growing-tree maze over ``grid`` with the rule named by ``option``.

    Example
    -------
    >>> from blockmaze.grids import square_grid
    >>> links = carve(square_grid(3, 3), np.random.default_rng(0), "oldest")
    >>> int(links.sum()) // 2   # a spanning tree of 9 cells has 8 passages
    8
    >>> carve(square_grid(3, 3), np.random.default_rng(0), "fastest")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: growing-tree option must be newest, random, oldest or a number from 0 to 1, got 'fastest'
    """
    newest = parse_rule(option)
    strides, width, visited, start = walk_layout(grid, random_enabled_cell(grid, rng))
    back = growing_tree_kernel(grid.neighbors, strides, width, visited, start, grid.opposite, rng,
                               newest, carve_order(grid, False) if order is None else order)
    return links_from_parents(grid.neighbors, grid.opposite, cells_of(back, width))
