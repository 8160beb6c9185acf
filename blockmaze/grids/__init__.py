"""Grid kinds: each module builds the neighbour table of one cell shape.

``GRID_KINDS`` maps a kind's name to its constructor; the CLI's ``--grid`` choices come from it.
"""

from .base import Grid
from .square import square_grid

GRID_KINDS = {"square": square_grid}

__all__ = ["GRID_KINDS", "Grid", "square_grid"]
