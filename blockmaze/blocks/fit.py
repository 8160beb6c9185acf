"""The largest maze that fits a given number of blocks (``--fit``): for a square or weave grid
from its walls and passages, for a layered one its levels from the height too, for another
kind from its rasterized plan's extent at the scale (:func:`~blockmaze.blocks.raster.plan_extent`),
each axis searched for the most cells whose blocks fit.

>>> fitting_shape("square", (21, 41), BlockSettings.resolve("square"))
(10, 20)
>>> fitting_shape("hex", (60, 60), BlockSettings.resolve("hex"))
(7, 9)
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import BlockmazeError
from .settings import BlockSettings

LARGEST = 1 << 20  # (cells an axis is searched to: far past any plan a side of 65,535 holds)


def fitting_shape(kind: str, blocks: tuple[int, ...], settings: BlockSettings) -> tuple[int, ...]:
    """The grid shape of ``kind`` with the most cells whose blocks fit ``blocks``: (ROWS, COLS)
    blocks of plan (z, x), or (HEIGHT, ROWS, COLS) for a layered maze (its levels stacked as
    ``blocks/stack.py`` stacks them: each ``height + 1`` blocks with its floor, a roof above).
    The plan is the maze's own, before any floor, roof or opening a format adds."""
    if kind == "labyrinth":
        raise BlockmazeError("--fit sizes a grid maze: a labyrinth's size is its circuits "
                             "(--circuits)")
    if kind == "layered":
        if len(blocks) != 3:
            raise BlockmazeError("--fit for a layered maze is HEIGHTxROWSxCOLS blocks (its "
                                 "levels from the height)")
        height, rows, cols = blocks
        levels = (height - settings.roof + (not settings.floor)) // (settings.height + 1)
        if levels < 1:
            raise BlockmazeError(f"--fit's height of {height} blocks holds no level {settings.height} "
                                 f"blocks high with its floor: give {settings.height + 1} or more")
        return (levels, *_fit_plan("square", (rows, cols), settings))
    if len(blocks) == 3:
        raise BlockmazeError(f"--fit for a {kind} maze is ROWSxCOLS blocks (a height is for a "
                             "layered maze)")
    rows, cols = (blocks[0], blocks[0]) if len(blocks) == 1 else blocks
    return _fit_plan(kind, (rows, cols), settings)


def _fit_plan(kind: str, blocks: tuple[int, int], settings: BlockSettings) -> tuple[int, ...]:
    extent = _extent_of(kind, settings)
    if kind == "polar":
        rings = _most(lambda n: _fits(extent((n,)), blocks))
        return _found(kind, (rings,), blocks)
    cols = _most(lambda n: _fits(extent((1, n)), blocks))
    rows = _most(lambda n: cols > 0 and _fits(extent((n, cols)), blocks))
    while rows and cols and not _fits(extent((rows, cols)), blocks):  # (axes not quite apart)
        cols -= 1
    return _found(kind, (rows, cols), blocks)


def _extent_of(kind: str, settings: BlockSettings) -> Callable[[tuple[int, ...]], tuple[int, int]]:
    """The (z, x) blocks of a plan of ``kind`` for a grid shape."""
    if settings.converted:
        return lambda shape: settings.plan_shape((shape[0], shape[1]))
    from ..grids import grid_constructor
    from .raster import plan_extent

    build, scale = grid_constructor(kind), settings.scale

    def extent(shape: tuple[int, ...]) -> tuple[int, int]:
        try:
            return plan_extent(build(*shape), scale)
        except BlockmazeError:  # (no such grid: a triangle grid's single column, say)
            return (LARGEST, LARGEST)
    return extent


def _fits(extent: tuple[int, int], blocks: tuple[int, int]) -> bool:
    return extent[0] <= blocks[0] and extent[1] <= blocks[1]


def _most(fits: Callable[[int], bool]) -> int:
    """The largest n >= 1 with ``fits(n)`` (fits holding up to some n and not past it), else 0."""
    if not fits(1):
        return 0
    low, high = 1, 2
    while high < LARGEST and fits(high):
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


def _found(kind: str, shape: tuple[int, ...], blocks: tuple[int, int]) -> tuple[int, ...]:
    if not all(shape):
        raise BlockmazeError(f"{blocks[0]}x{blocks[1]} blocks hold no {kind} maze: give more "
                             "blocks to --fit, or thinner walls and passages (or a smaller "
                             "--scale)")
    return shape
