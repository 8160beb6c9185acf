"""Grid kinds: each module builds the neighbour table of one cell shape.

:data:`GRID_KINDS` maps each kind's name to its constructor ``build(*shape, mask=None) -> Grid``.
The names are a static table, so ``--grid`` choices need no import; a kind's module is imported
when its constructor is first looked up, and registers it with :func:`register_kind`
(tests/test_registry.py checks the table against the modules).

>>> sorted(GRID_KINDS)
['cube', 'cylinder', 'hex', 'layered', 'moebius', 'polar', 'sphere', 'square', 'torus', 'triangle', 'upsilon', 'weave']
>>> GRID_KINDS["square"](2, 3)
Grid(square, 2x3)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..support.lazy import Registry

if TYPE_CHECKING:
    from .base import Grid


# kind -> (module, constructor name)
KIND_MODULES = {kind: (kind, f"{kind}_grid")
                for kind in ("hex", "layered", "polar", "square", "triangle", "upsilon", "weave")}
# the surfaces' kinds (one module, blockmaze.grids.surfaces): wrapped squares, a cube's faces, a
# sphere's rings. A maze of them is made, solved, measured, kept as a maze document and drawn
# as its net by the picture writers; the other writers draw the flat kinds only
SURFACE_KINDS = ("cylinder", "torus", "moebius", "cube", "sphere")
KIND_MODULES.update({kind: ("surfaces", f"{kind}_grid") for kind in SURFACE_KINDS})
FLAT_KINDS = tuple(kind for kind in KIND_MODULES if kind not in SURFACE_KINDS)


GRID_KINDS: Registry[Callable[..., Grid]] = Registry(
    {kind: f"{__name__}.{module}" for kind, (module, _) in KIND_MODULES.items()})


def grid_constructor(kind: str) -> Callable[..., Grid]:
    """The constructor ``build(*shape, mask=None)`` of ``kind``; an unknown kind is a
    BlockmazeError naming the kinds there are.

    >>> grid_constructor("hex")(2, 3)
    Grid(hex, 2x3)
    """
    try:
        return GRID_KINDS[kind]
    except KeyError:
        from ..errors import BlockmazeError

        raise BlockmazeError(
            f"unknown grid kind {kind!r}; choose one of: {', '.join(sorted(GRID_KINDS))}"
        ) from None


def register_kind(name: str, build: Callable[..., Grid]) -> None:
    """Called by a kind's module: the constructor of a :data:`KIND_MODULES` row."""
    GRID_KINDS.loaded[name] = build


def __getattr__(name: str):
    """``Grid``, and ``hex_grid``, ``square_grid``, ...: each kind's constructor, imported on
    first use (so naming the kinds needs no numpy)."""
    if name == "Grid":
        from .base import Grid

        return Grid
    for kind, (_, constructor) in KIND_MODULES.items():
        if name == constructor:
            return GRID_KINDS[kind]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["FLAT_KINDS", "GRID_KINDS", "Grid", "SURFACE_KINDS", "cube_grid", "cylinder_grid", "grid_constructor", "hex_grid",
           "layered_grid", "moebius_grid", "polar_grid", "register_kind", "sphere_grid",
           "square_grid", "torus_grid", "triangle_grid", "upsilon_grid", "weave_grid"]
