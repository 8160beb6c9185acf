"""Maze generation algorithms, found by name.

Each algorithm is a module of this package with a numba kernel over the neighbour table and a thin
entry point ``carve(grid, rng, option) -> links`` registered with :func:`register`; modules are
discovered automatically, so adding an algorithm is adding a file. An algorithm is chosen by a
spec ``NAME`` or ``NAME:OPTION`` (e.g. ``growing-tree:0.75``).

Example
-------
>>> from blockmaze.algorithms import ALGORITHMS, get_algorithm
>>> "backtracker" in ALGORITHMS
True
>>> get_algorithm("backtracker")[0].name
'backtracker'
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..errors import BlockmazeError
from ..grids import Grid

Carver = Callable[[Grid, np.random.Generator, "str | None"], np.ndarray]


@dataclass(frozen=True)
class Algorithm:
    """A registered algorithm.

    Attributes
    ----------
    name, summary : str
        The registry name and a one-line description (shown in ``--help``).
    carve : callable
        ``carve(grid, rng, option) -> links: bool[n, k]``; ``option`` is the text after ``:`` in
        the spec, or None. It raises BlockmazeError for an option it does not understand.
    grid_kinds : frozenset of str, or None
        The grid kinds it runs on; None = every kind.
    needs_unmasked : bool
        True if it cannot run on a grid with masked cells.
    options : tuple of str
        Example option values, shown in help and each one tested; () if it takes none.
    """

    name: str
    carve: Carver
    summary: str
    grid_kinds: frozenset[str] | None = None
    needs_unmasked: bool = False
    options: tuple[str, ...] = ()


ALGORITHMS: dict[str, Algorithm] = {}


def register(name: str, summary: str, grid_kinds: set[str] | None = None,
             needs_unmasked: bool = False, options: tuple[str, ...] = ()):
    """Decorator adding a carver to :data:`ALGORITHMS` under ``name``."""

    def add(carve: Carver) -> Carver:
        kinds = frozenset(grid_kinds) if grid_kinds is not None else None
        ALGORITHMS[name] = Algorithm(name, carve, summary, kinds, needs_unmasked, tuple(options))
        return carve

    return add


def get_algorithm(spec: str, grid: Grid | None = None) -> tuple[Algorithm, str | None]:
    """The algorithm and option named by ``spec`` (``NAME`` or ``NAME:OPTION``), checked against ``grid``.

    >>> get_algorithm("nope")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: unknown algorithm 'nope'; choose one of: ...
    """
    name, _, option = spec.partition(":")
    try:
        algorithm = ALGORITHMS[name]
    except KeyError:
        raise BlockmazeError(
            f"unknown algorithm {name!r}; choose one of: {', '.join(sorted(ALGORITHMS))}"
        ) from None
    if option and not algorithm.options:
        raise BlockmazeError(f"{name} takes no option, got {option!r}")
    if grid is not None:
        if algorithm.grid_kinds is not None and grid.kind not in algorithm.grid_kinds:
            raise BlockmazeError(
                f"{name} needs a grid of kind {' or '.join(sorted(algorithm.grid_kinds))}, "
                f"not {grid.kind}"
            )
        if algorithm.needs_unmasked and grid.enabled_count < grid.size:
            raise BlockmazeError(f"{name} cannot run on a grid with masked cells")
    return algorithm, option or None


def algorithm_specs() -> list[str]:
    """Every algorithm name, and NAME:OPTION for each listed option (for help and tests).

    >>> "backtracker" in algorithm_specs()
    True
    """
    specs = []
    for name in sorted(ALGORITHMS):
        specs.append(name)
        specs.extend(f"{name}:{option}" for option in ALGORITHMS[name].options)
    return specs


def _register_all() -> None:
    """Import every module of this package: each registers its algorithm."""
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")


_register_all()
