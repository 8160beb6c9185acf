"""A cylinder maze's 2n+1 plan, wrapped round: ``(2 rows + 1, 2 cols)`` pixels, True = wall.

Pixel ``(2r + 1, 2c + 1)`` is cell (r, c); ``(2r + 1, 2c)`` the side between cells
``(r, c - 1 mod cols)`` and (r, c), a passage where the cell links west; ``(2r, 2c + 1)`` the
side between rows r - 1 and r (row 0's top: pixel row 0, the last row's bottom: pixel row
``2 rows``); ``(2r, 2c)`` the posts, always wall. Column ``2 cols - 1`` meets column 0 round
the seam, so there is no last column of posts.

>>> from blockmaze import generate, cylinder_grid
>>> plan = cylinder_plan(generate(cylinder_grid(2, 3), rng=1), openings=[(0, 1)])
>>> plan.shape, bool(plan[0, 1]), bool(plan[0, 3])
((5, 6), False, True)
"""

from __future__ import annotations

import numpy as np

from ...errors import BlockmazeError
from ...grids.square import NORTH, WEST


def cylinder_plan(maze, openings=()) -> np.ndarray:
    """The wrapped 2n+1 plan of ``maze`` (a cylinder grid's), True = wall, with the pixels
    ``openings`` (``(pixel row, pixel column)`` pairs) cleared. See the module notes."""
    grid = maze.grid
    if grid.kind != "cylinder":
        raise BlockmazeError(f"a cylinder plan needs a maze on a cylinder grid, got {grid.kind}")
    rows, cols = grid.shape
    links = np.asarray(maze.links).reshape(rows, cols, -1)
    plan = np.ones((2 * rows + 1, 2 * cols), bool)
    plan[1::2, 1::2] = False  # cells
    plan[1::2, 0::2] = ~links[:, :, WEST]  # west sides, round the seam at column 0
    plan[2:-1:2, 1::2] = ~links[1:, :, NORTH]  # sides between rows
    for opening in openings:
        try:
            r, c = (int(v) for v in opening)
        except (TypeError, ValueError):
            raise BlockmazeError("an opening is a (pixel row, pixel column) pair, "
                                 f"got {opening!r}") from None
        if not (0 <= r < plan.shape[0] and 0 <= c < plan.shape[1]):
            raise BlockmazeError(f"opening {(r, c)} is outside the plan of "
                                 f"{plan.shape[0]}x{plan.shape[1]} pixels")
        plan[r, c] = False
    return plan
