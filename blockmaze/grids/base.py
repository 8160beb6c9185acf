"""Grid: the topology of a maze as a neighbour table, shared by every cell shape."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import BlockmazeError
from ..support.wording import article

MAX_CELLS = np.iinfo(np.int32).max  # cell indices are int32


@dataclass(frozen=True, eq=False)
class Grid:
    """Cells and who neighbours whom.

    Attributes
    ----------
    kind : str
        The grid kind, e.g. ``"square"``.
    shape : tuple of int
        The kind's shape parameters, e.g. ``(rows, cols)``.
    neighbors : int32 array (n, k)
        ``neighbors[i, d]`` is the cell in direction ``d`` of cell ``i``, or -1 where there is
        none (outside the grid, a disabled cell, or a direction the cell's shape lacks).
    opposite : int array (k,)
        The direction leading back: ``neighbors[neighbors[i, d], opposite[d]] == i``.
    directions : tuple of str
        A name for each direction.
    enabled : bool array (n,)
        False for cells a mask disabled; they have no neighbours and nobody neighbours them.

    Example
    -------
    >>> from blockmaze.grids import square_grid
    >>> g = square_grid(2, 3)
    >>> g.size, g.degree, g.directions
    (6, 4, ('north', 'east', 'south', 'west'))
    """

    kind: str
    shape: tuple[int, ...]
    neighbors: np.ndarray
    opposite: np.ndarray
    directions: tuple[str, ...]
    enabled: np.ndarray

    def __post_init__(self) -> None:
        for array in (self.neighbors, self.opposite, self.enabled):
            array.setflags(write=False)

    @property
    def size(self) -> int:
        """Number of cells, enabled or not."""
        return self.neighbors.shape[0]

    @property
    def degree(self) -> int:
        """Number of directions (columns of the neighbour table)."""
        return self.neighbors.shape[1]

    @property
    def enabled_count(self) -> int:
        """Number of enabled cells."""
        return int(np.count_nonzero(self.enabled))

    def direction(self, name: str) -> int:
        """The index of the direction called ``name``.

        >>> from blockmaze.grids import square_grid
        >>> square_grid(1, 1).direction("south")
        2
        """
        try:
            return self.directions.index(name)
        except ValueError:
            raise BlockmazeError(
                f"{article(self.kind)} grid has no direction {name!r}; it has {', '.join(self.directions)}"
            ) from None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Grid):
            return NotImplemented
        return (
            self.kind == other.kind
            and self.shape == other.shape
            and np.array_equal(self.enabled, other.enabled)
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.shape, self.enabled.tobytes()))

    def __repr__(self) -> str:
        masked = self.size - self.enabled_count
        extra = f", {masked} masked" if masked else ""
        return f"Grid({self.kind}, {'x'.join(map(str, self.shape))}{extra})"


def check_cell_count(count: int, what: str) -> None:
    """Refuse a grid with fewer than one cell or more cells than int32 indices reach.

    >>> check_cell_count(0, "a 0x3 square grid")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: a 0x3 square grid has no cells; every dimension must be >= 1
    """
    if count < 1:
        raise BlockmazeError(f"{what} has no cells; every dimension must be >= 1")
    if count > MAX_CELLS:
        raise BlockmazeError(f"{what} has {count} cells; a maze has at most {MAX_CELLS} cells")


def apply_mask(neighbors: np.ndarray, enabled: np.ndarray) -> np.ndarray:
    """Cut every neighbour relation that touches a disabled cell (in place) and return the table.

    >>> t = np.array([[1], [0]], dtype=np.int32)
    >>> apply_mask(t, np.array([True, False])).tolist()
    [[-1], [-1]]
    """
    neighbors[~enabled] = -1
    np.putmask(neighbors, ~enabled[neighbors], -1)  # a -1 reads the last cell: it stays -1 either way
    return neighbors
