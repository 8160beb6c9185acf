"""Printed sizes: how large a mesh for printing (STL, 3MF, a finger labyrinth's plate) comes out
in millimetres, and whether it fits the printer's bed.

A volume of ``(y, z, x)`` blocks prints ``x * block_size`` wide, ``z * block_size`` deep and
``y * block_size`` high (the writers' Z-up frame, :func:`~blockmaze.export.meshes.common.z_up`);
a finger plate (``finger=(edge, depth)``, as the STL writer takes it) is ``edge`` mm a block
across and :data:`FINGER_BASE` + ``depth`` mm high. A part fits a
``WIDTHxDEPTH`` bed laid either way round (a slicer turns it a quarter turn as readily); its
height is the printer's business, not the bed's.

Example
-------
>>> size = printed_size((4, 75, 64), block_size=5)
>>> size_text(size), bed_fit(size, (220, 220))
('320 x 375 x 20 mm', 0.5866666666666667)
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ...errors import BlockmazeError, BlockmazeWarning
from ..defaults import BED

DEFAULT_BED = BED  # mm: a common bed (the Creality Ender-3's; docs/meshes.md)
DEFAULT_BLOCK_SIZE = 5.0  # mm a block, the STL and 3MF writers' default
FINGER_BASE = 2.0  # mm of plate under a finger labyrinth's groove
PRINT_FORMATS = ("stl", "3mf")  # the writers whose files are for printing, in millimetres


def printed_size(shape: tuple[int, int, int], block_size: float | None = None,
                 finger: tuple[float, float] | None = None) -> tuple[float, float, float]:
    """(width, depth, height) in mm of a ``(y, z, x)`` volume printed at ``block_size`` mm a
    block (default 5), or as a finger plate (``finger``: a block's edge and the groove's depth).

    >>> printed_size((4, 82, 82), finger=(4.0, 3.0))
    (328.0, 328.0, 5.0)
    """
    height, length, width = (int(side) for side in shape)
    if finger is not None:
        edge, depth = (float(value) for value in finger)
        return width * edge, length * edge, FINGER_BASE + depth
    size = DEFAULT_BLOCK_SIZE if block_size is None else float(block_size)
    return width * size, length * size, height * size


def solid_shape(blocks) -> tuple[int, int, int]:
    """The ``(y, z, x)`` sides of the box around a volume's solid (non-AIR) blocks: what prints,
    and the volume's own shape wherever solid blocks reach every side, as in every build of
    blockmaze's (max-reductions over the uint8 array: no copy of it).

    >>> blocks = np.zeros((3, 4, 5), np.uint8); blocks[0, 1:3, 2] = 1
    >>> solid_shape(blocks), solid_shape(np.zeros((2, 2, 2), np.uint8))
    ((1, 2, 1), (0, 0, 0))
    """
    sides = []
    for axis in range(3):
        others = tuple(a for a in range(3) if a != axis)
        filled = np.flatnonzero(np.asarray(blocks).max(axis=others)) if blocks.size \
            else np.zeros(0, np.intp)
        sides.append(int(filled[-1] - filled[0] + 1) if len(filled) else 0)
    return sides[0], sides[1], sides[2]


def size_text(size: tuple[float, ...]) -> str:
    """A size as the command says it: millimetres to a tenth.

    >>> size_text((328.0, 327.96, 5.0))
    '328 x 328 x 5 mm'
    """
    return " x ".join(f"{round(side, 1):g}" for side in size) + " mm"


def bed_fit(size: tuple[float, ...], bed: tuple[float, float]) -> float:
    """The scale that makes a part of ``size`` (width, depth, ...) just fit ``bed`` (width,
    depth), either way round: at least 1 where it fits already.

    >>> bed_fit((300, 100, 5), (220, 220)), bed_fit((100, 200, 5), (220, 180))
    (0.7333333333333333, 1.1)
    """
    width, depth = size[0], size[1]
    across, deep = bed
    return max(min(across / width, deep / depth), min(across / depth, deep / width))


def check_bed(bed) -> tuple[float, float] | None:
    """A bed as ``(width, depth)`` millimetres, both finite and > 0 (None: no bed to check).

    >>> check_bed((180, 180.0)), check_bed(None)
    ((180.0, 180.0), None)
    >>> check_bed((0, 220))
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: bed must be (width, depth) in millimetres, both > 0, got (0, 220)
    """
    if bed is None:
        return None
    try:
        width, depth = (float(side) for side in bed)
        good = all(math.isfinite(side) and side > 0 for side in (width, depth)) \
            and not any(isinstance(side, bool) for side in bed)
    except (TypeError, ValueError):
        good = False
    if not good:
        raise BlockmazeError(f"bed must be (width, depth) in millimetres, both > 0, got {bed!r}")
    return width, depth


def _down(value: float) -> float:
    """``value`` rounded down to two significant digits (a scale that still fits)."""
    digits = max(0, 1 - math.floor(math.log10(value)))
    step = 10.0 ** -digits
    return math.floor(value / step + 1e-9) * step


def warn_if_too_large(size: tuple[float, float, float], bed, *, block_size: float | None = None,
                      finger: bool = False) -> None:
    """Warn, in one line (a :class:`~blockmaze.errors.BlockmazeWarning`), when a part of ``size``
    does not fit ``bed``: its size, the bed's, and the ``--block-size`` (or, for a finger
    plate, how much narrower a ``--finger`` groove) that would fit it.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_if_too_large((320.0, 375.0, 20.0), (220.0, 220.0), block_size=5.0)
    >>> print(caught[0].message)
    the print is 320 x 375 x 20 mm, larger than the 220 x 220 mm bed (--bed): --block-size 2.9 would fit it
    """
    bed = check_bed(bed)
    if bed is None:
        return
    scale = bed_fit(size, bed)
    if scale >= 1:
        return
    if finger:
        advice = f"a --finger groove at most {_down(scale):g} times as wide would fit it"
    else:
        current = DEFAULT_BLOCK_SIZE if block_size is None else float(block_size)
        advice = f"--block-size {_down(current * scale):g} would fit it"
    warnings.warn(BlockmazeWarning(
        f"the print is {size_text(size)}, larger than the {size_text(bed)[:-3]} mm bed (--bed): "
        f"{advice}"), stacklevel=3)


def print_size(volume_shape: tuple[int, int, int], writer_name: str,
               block_size: float | None = None,
               finger: tuple[float, float] | None = None) -> str | None:
    """The printed size for the command's "wrote" line, for a format that prints (STL, 3MF), or
    None for any other; ``block_size`` and ``finger`` as the writer takes them (``finger``: a
    block's edge and the groove's depth in mm, STL only).

    >>> print_size((4, 75, 64), "3mf"), print_size((4, 75, 64), "glb")
    ('320 x 375 x 20 mm', None)
    """
    if writer_name not in PRINT_FORMATS:
        return None
    return size_text(printed_size(volume_shape, block_size, finger if writer_name == "stl" else None))
