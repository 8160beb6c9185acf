"""Grid kinds: each module builds the neighbour table of one cell shape.

A kind's module registers its constructor ``build(*shape, mask=None) -> Grid`` with
:func:`register_kind`; modules are discovered automatically. ``GRID_KINDS`` maps names to
constructors; the CLI's ``--grid`` choices come from it.

>>> sorted(GRID_KINDS)
['hex', 'layered', 'polar', 'square', 'triangle', 'upsilon']
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Callable

from .base import Grid

GRID_KINDS: dict[str, Callable[..., Grid]] = {}


def register_kind(name: str, build: Callable[..., Grid]) -> None:
    """Add a grid kind."""
    GRID_KINDS[name] = build


def _register_all() -> None:
    for module in pkgutil.iter_modules(__path__):
        if module.name != "base":
            importlib.import_module(f"{__name__}.{module.name}")


_register_all()

from .hex import hex_grid  # noqa: E402
from .layered import layered_grid  # noqa: E402
from .polar import polar_grid  # noqa: E402
from .square import square_grid  # noqa: E402
from .triangle import triangle_grid  # noqa: E402
from .upsilon import upsilon_grid  # noqa: E402

__all__ = ["GRID_KINDS", "Grid", "hex_grid", "layered_grid", "polar_grid", "register_kind",
           "square_grid", "triangle_grid", "upsilon_grid"]
