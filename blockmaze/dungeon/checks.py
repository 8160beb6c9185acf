"""Checks of the options every dungeon style shares: sizes, room sizes, whole numbers."""

from __future__ import annotations

from numbers import Integral

from ..errors import BlockmazeError


def whole(value, name: str, least: int) -> int:
    """``value`` as an int, refused unless a whole number >= ``least``.

    >>> whole(3, "levels", 1)
    3
    """
    if isinstance(value, bool) or not isinstance(value, Integral) or value < least:
        raise BlockmazeError(f"{name} must be a whole number >= {least}, got {value!r}")
    return int(value)


def cells_shape(shape) -> tuple[int, int]:
    """A dungeon's ``(rows, cols)`` in cells, checked (at least 2 cells)."""
    try:
        rows, cols = shape
    except (TypeError, ValueError):
        raise BlockmazeError(f"a dungeon's shape is (rows, cols) in cells, got {shape!r}") from None
    rows, cols = whole(rows, "rows", 1), whole(cols, "cols", 1)
    if rows * cols < 2:
        raise BlockmazeError("a dungeon needs at least 2 cells (a start and a goal)")
    return rows, cols


def room_size_range(size) -> tuple[int, int]:
    """A room side in cells, ``n`` or ``(min, max)``, as a checked ``(min, max)`` pair."""
    pair = tuple(size) if isinstance(size, (tuple, list)) else (size, size)
    if len(pair) != 2:
        raise BlockmazeError(f"room_size is a side length in cells or a (min, max) pair, got {size!r}")
    lo, hi = whole(pair[0], "room_size", 1), whole(pair[1], "room_size", 1)
    if lo > hi:
        raise BlockmazeError(f"room_size min must not exceed max, got {size!r}")
    return lo, hi
