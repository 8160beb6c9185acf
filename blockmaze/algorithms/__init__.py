"""Maze generation algorithms, found by name.

Each algorithm is a module of this package: a kernel over the neighbour table and a thin entry
point ``carve(grid, rng, option) -> links`` registered under its name with :func:`register`.
:data:`ALGORITHMS` below knows every algorithm's name, summary and limits without importing anything,
so help and argument checks are instant; the module is imported when the algorithm first runs
(tests/test_registry.py checks the table against the modules). An algorithm is chosen by a spec
``NAME`` or ``NAME:OPTION`` (e.g. ``growing-tree:0.75``).

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
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import BlockmazeError

if TYPE_CHECKING:
    import numpy as np

    from ..grids import Grid

Carver = Callable[["Grid", "np.random.Generator", "str | None"], "np.ndarray"]

_CARVERS: dict[str, Carver] = {}  # filled by the modules as they are imported


@dataclass(frozen=True)
class Algorithm:
    """A registered algorithm.

    Attributes
    ----------
    name, summary : str
        The registry name and a one-line description (shown in ``--help``).
    module : str
        The module of this package that carves it (imported on first use).
    grid_kinds : frozenset of str, or None
        The grid kinds it runs on; None = every kind.
    needs_unmasked : bool
        True if it cannot run on a grid with masked cells.
    options : tuple of str
        Example option values, shown in help and each one tested; () if it takes none.
    """

    name: str
    module: str
    summary: str
    grid_kinds: frozenset[str] | None = None
    needs_unmasked: bool = False
    options: tuple[str, ...] = ()

    @property
    def carve(self) -> Carver:
        """``carve(grid, rng, option, order=None) -> links: bool[n, k]``; ``option`` is the text
        after ``:`` in the spec, or None. It raises BlockmazeError for an option it does not
        understand. ``order`` (from ``common.carve_order``), when given, receives the carve order:
        a row ``(cell, direction)`` per passage, in the order they were opened."""
        if self.name not in _CARVERS:
            importlib.import_module(f"{__name__}.{self.module}")
        return _CARVERS[self.name]


_SQUARE = frozenset({"square"})
ALGORITHMS: dict[str, Algorithm] = {a.name: a for a in (
    Algorithm("aldous-broder", "aldous_broder",
              "random walk over visited and unvisited cells: uniform spanning tree, slow"),
    Algorithm("backtracker", "backtracker",
              "recursive backtracker (randomized depth-first search): long corridors"),
    Algorithm("binary-tree", "binary_tree",
              "each cell links north or east at random: a north-east bias, the simplest maze",
              _SQUARE, True),
    Algorithm("eller", "eller",
              "Eller's algorithm (row by row, sets joined and carried down): vertical grain"),
    Algorithm("growing-tree", "growing_tree",
              "grow the newest, a random or the oldest active cell, or the newest with chance R "
              "(a number; default 0.5)", options=("newest", "random", "oldest", "0.25")),
    Algorithm("hunt-and-kill", "hunt_and_kill",
              "random walks restarted by a scan for the next cell: long corridors"),
    Algorithm("kruskal", "kruskal",
              "randomized Kruskal (edges in random order, union-find): many short dead ends; "
              "kruskal:weave lays a weave grid's crossings first (many crossings)",
              options=("weave",)),
    Algorithm("prim", "prim",
              "true Prim (random edge weights, cheapest edge first): many short dead ends"),
    Algorithm("prim-simplified", "prim",
              "simplified Prim (random frontier cell joins the tree): radiates from the start"),
    Algorithm("recursive-division", "recursive_division",
              "split an open room by walls with one gap each: long straight walls", _SQUARE, True),
    Algorithm("sidewinder", "sidewinder",
              "row by row, eastward runs each open once to the north: a vertical bias",
              _SQUARE, True),
    Algorithm("wilson", "wilson",
              "loop-erased random walks: uniform spanning tree, faster than aldous-broder"),
)}


def register(name: str):
    """Decorator a module puts on its carver: ``@register("backtracker")`` (its
    :data:`ALGORITHMS` row names the module)."""

    def add(carve: Carver) -> Carver:
        _CARVERS[name] = carve
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
