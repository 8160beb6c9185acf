"""The inset drawing of weave mazes (the book's way): each cell is drawn as a room inset from its
square, joined to its neighbours by corridors; a crossing's passage on top has its walls drawn
straight across the cell, and the passage under it shows as corridor walls that stop at them,
so the eye sees it go under.

Coordinates are the square grid's plane units (cell (r, c) covers ``[c, c + 1] x [r, r + 1]``).

>>> from blockmaze.pipeline import make_maze
>>> maze = make_maze((3, 3), "weave", seed=1).maze
>>> inset_walls(maze).shape[1:]   # segments: (m, 2 points, x y)
(2, 2)
"""

from __future__ import annotations

import numpy as np

from ..mazes.endpoints import Endpoints
from ..grids.weave import OVER_EAST_WEST, weave_of
from ..maze import Maze

INSET = 0.2  # of a cell's side, between its square and its room

# per direction (north, east, south, west): the two corridor walls when open, the room's side
# when closed, as (x, y) fractions of the cell, a = INSET, b = 1 - INSET
_A, _B = INSET, 1 - INSET
OPEN = np.array([
    [[[_A, 0], [_A, _A]], [[_B, 0], [_B, _A]]],
    [[[_B, _A], [1, _A]], [[_B, _B], [1, _B]]],
    [[[_A, _B], [_A, 1]], [[_B, _B], [_B, 1]]],
    [[[0, _A], [_A, _A]], [[0, _B], [_A, _B]]],
])
CLOSED = np.array([[[_A, _A], [_B, _A]], [[_B, _A], [_B, _B]], [[_A, _B], [_B, _B]],
                   [[_A, _A], [_A, _B]]])


def inset_walls(maze: Maze, endpoints: Endpoints | None = None) -> np.ndarray:
    """Every wall as a segment ``(m, 2, 2)`` in plane units (see the module docstring)."""
    grid = weave_of(maze.grid)
    rows, cols = grid.shape
    opened = maze.links.copy()
    if endpoints is not None:
        for at, side in endpoints.openings:
            opened[int(at), int(side)] = True
    closed = ~opened
    crossings = grid.used_crossings(maze.links)
    under = np.where(grid.crossings[crossings[:, 0]] == OVER_EAST_WEST, 0, 1)  # north or east
    for side in (0, 2):  # a used crossing: the room's side and the corridor walls under it
        opened[crossings[:, 0], under + side] = True
        closed[crossings[:, 0], under + side] = True
    enabled = grid.enabled[:, None]
    r, c = np.divmod(np.arange(grid.size), cols)
    origin = np.stack([c, r], axis=1).astype(np.float64)[:, None, None, :]
    cell, d = np.nonzero(opened & enabled)
    corridor = (origin[cell] + OPEN[d]).reshape(-1, 2, 2)
    cell, d = np.nonzero(closed & enabled)
    sides = origin[cell, 0] + CLOSED[d]
    return np.concatenate([corridor, sides])
