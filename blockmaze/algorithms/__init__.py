"""Maze generation algorithms, found by name.

Each algorithm is a module with a numba kernel over the neighbour table and a thin entry point
``carve(grid, rng) -> links`` registered here with :func:`register`. ``generate`` builds the Maze.

Example
-------
>>> from blockmaze.algorithms import ALGORITHMS
>>> "backtracker" in ALGORITHMS
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..errors import BlockmazeError
from ..grids import Grid

Carver = Callable[[Grid, np.random.Generator], np.ndarray]


@dataclass(frozen=True)
class Algorithm:
    """A registered algorithm: its name, its carver, and the grid kinds it needs (None = any)."""

    name: str
    carve: Carver
    summary: str
    grid_kinds: frozenset[str] | None = None


ALGORITHMS: dict[str, Algorithm] = {}


def register(name: str, summary: str, grid_kinds: set[str] | None = None):
    """Decorator adding a carver to :data:`ALGORITHMS` under ``name``."""

    def add(carve: Carver) -> Carver:
        kinds = frozenset(grid_kinds) if grid_kinds is not None else None
        ALGORITHMS[name] = Algorithm(name, carve, summary, kinds)
        return carve

    return add


def get_algorithm(name: str, grid: Grid | None = None) -> Algorithm:
    """The algorithm called ``name``, checked against the grid kind it will run on.

    >>> get_algorithm("nope")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: unknown algorithm 'nope'; choose one of: backtracker
    """
    try:
        algorithm = ALGORITHMS[name]
    except KeyError:
        raise BlockmazeError(
            f"unknown algorithm {name!r}; choose one of: {', '.join(sorted(ALGORITHMS))}"
        ) from None
    if grid is not None and algorithm.grid_kinds is not None and grid.kind not in algorithm.grid_kinds:
        raise BlockmazeError(
            f"{name} needs a grid of kind {' or '.join(sorted(algorithm.grid_kinds))}, not {grid.kind}"
        )
    return algorithm


# Importing the modules registers them.
from . import backtracker  # noqa: E402,F401
