"""generate(): grid + algorithm + seed -> Maze."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..algorithms import get_algorithm
from ..errors import BlockmazeError, shown
from ..grids import Grid, grid_constructor
from ..maze import Maze
from ..support.randomness import as_generator


def make_grid(shape: Grid | Sequence[int], kind: str = "square") -> Grid:
    """A Grid of ``kind`` with the given shape parameters (or ``shape`` itself if it is a Grid).

    >>> make_grid((2, 3))
    Grid(square, 2x3)
    """
    if isinstance(shape, Grid):
        return shape
    if isinstance(shape, (str, bytes)) or not hasattr(shape, "__len__") or not all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in shape):
        raise BlockmazeError(f"a grid's shape is whole numbers, e.g. (rows, columns), got {shown(shape)}")
    return grid_constructor(kind)(*shape)


def generate(
    shape: Grid | Sequence[int],
    algorithm: str = "backtracker",
    rng: np.random.Generator | int | None = None,
    kind: str = "square",
    order: np.ndarray | None = None,
) -> Maze:
    """A maze on ``shape`` (e.g. ``(rows, cols)``, or a Grid) carved by ``algorithm`` (``NAME[:OPTION]``).

    Parameters
    ----------
    shape : Grid or sequence of int
        A grid, or the shape of one of ``kind``: ``(rows, cols)`` for a square grid,
        ``(levels, rows, cols)`` for a layered one, ``(rings,)`` for a polar one.
    algorithm : str
        A name of :data:`~blockmaze.algorithms.ALGORITHMS`, with its option after a colon
        (``"growing-tree:newest"``).
    rng : numpy.random.Generator, int or None
        The seed; the same seed always gives the same maze.
    kind : str
        The grid kind when ``shape`` is a shape (:data:`~blockmaze.grids.GRID_KINDS`).
    order : numpy.ndarray, optional
        An array from ``algorithms.common.carve_order(grid, True)``; it receives the order the
        passages were carved in, a row ``(cell, direction)`` each (recording draws nothing).

    Returns
    -------
    Maze
        The grid and its passages.

    Examples
    --------
    >>> m = generate((10, 20), rng=42)
    >>> m.is_perfect(), m == generate((10, 20), rng=42)
    (True, True)
    """
    grid = make_grid(shape, kind)
    chosen, option = get_algorithm(algorithm, grid)
    links = chosen.carve(grid, as_generator(rng), option, *(() if order is None else (order,)))
    return Maze(grid, links, validate=False)
