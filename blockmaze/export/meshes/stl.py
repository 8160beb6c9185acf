"""Binary STL: all solid blocks as one closed solid, Z-up, millimetres (slicers, CAD).

STL has no shared vertices and no colours: each triangle holds its three corners and normal.
Stairs are steps, as in every mesh format.
Z-up is ``(x, D - z, y) * block_size`` with D the volume's depth: a rotation about X plus a shift
into the positive octant; seen from above, north is at the top as in the maze's picture.
``block_size`` defaults to 5 mm (a 20x20-cell maze, 41 blocks wide, is 205 mm: a 220 mm bed);
a part larger than ``bed`` (width, depth in mm; default 220 x 220, None: not checked) is written
with a one-line warning saying what would fit (:mod:`~blockmaze.export.meshes.printing`).

``finger=(edge, depth)`` writes a finger labyrinth instead: a solid plate, :data:`FINGER_BASE`
mm thick under the groove, whose top is the maze's walls ``depth`` mm high, each block ``edge``
mm across (the command makes ``edge`` the groove's width over the passage's blocks); walls are
the columns of blocks solid from bottom to top, everything else (passages, openings) is groove.

Example
-------
>>> import io
>>> from blockmaze.materials import load_theme
>>> out = io.BytesIO()
>>> write_stl(np.ones((1, 1, 1), np.uint8), out, load_theme())
>>> len(out.getvalue()) == 80 + 4 + 12 * 50   # header, count, 12 triangles
True
"""

from __future__ import annotations

import struct
from functools import partial
from typing import BinaryIO

import numpy as np

from ...errors import BlockmazeError
from ...materials import Theme
from .. import register_writer
from ..minecraft.blockdata import checked_theme  # (its states exist in some release)
from .chunks import chunk_parts
from .common import check_block_size, check_flag, check_size, z_up
from .printing import (DEFAULT_BED, DEFAULT_BLOCK_SIZE, FINGER_BASE, check_bed, print_size,
                       printed_size, solid_shape, warn_if_too_large)

__all__ = ["write_stl"]

_STL_CHUNK = 1 << 20  # triangles per write


def finger_plate(blocks: np.ndarray) -> np.ndarray:
    """The two layers of a finger labyrinth's plate: solid everywhere, then the walls (the
    columns of ``blocks`` solid from bottom to top).

    >>> finger_plate(np.array([[[1, 1]], [[1, 0]]], np.uint8))[:, 0].tolist()
    [[1, 1], [1, 0]]
    """
    walls = (blocks != 0).all(axis=0)
    return np.stack([np.ones_like(walls), walls]).astype(np.uint8)


def write_stl(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    block_size: float = DEFAULT_BLOCK_SIZE,
    watertight: bool = True,
    finger: tuple[float, float] | None = None,
    bed: tuple[float, float] | None = DEFAULT_BED,
) -> None:
    """Write a binary STL of all solid blocks as one closed solid, Z-up, ``block_size``
    millimetres; or with ``finger`` a finger labyrinth's plate (see the module docstring)."""
    block_size = check_block_size(block_size)
    check_flag("watertight", watertight)
    bed = check_bed(bed)
    heights = None
    if finger is not None:
        edge, depth = (check_block_size(v) for v in finger)
        size = printed_size(blocks.shape, finger=(edge, depth))
        blocks, block_size = finger_plate(blocks), edge
        heights = np.array([0.0, FINGER_BASE, FINGER_BASE + depth]) / edge
    else:
        size = printed_size(solid_shape(blocks), block_size)
    parts = list(chunk_parts(blocks, chunk=0, watertight=watertight))  # stairs as steps
    if not parts:
        raise BlockmazeError("the volume has no solid block: there is no surface to write")
    total = sum(len(part.faces) for part in parts)
    if total >= 2**32:
        raise BlockmazeError(f"{total} triangles are too many for a binary STL")
    warn_if_too_large(size, bed, block_size=block_size, finger=finger is not None)
    file.write(b"blockmaze binary STL, Z-up, units: mm".ljust(80, b" "))
    file.write(struct.pack("<I", total))
    record = np.zeros(min(total, _STL_CHUNK), dtype=[
        ("normal", "<f4", (3,)), ("corners", "<f4", (3, 3)), ("attribute", "<u2")])
    for mesh in parts:
        points = z_up(mesh.points().astype(np.float64), blocks.shape[1])
        if heights is not None:  # the plate's layers: its base, then the groove's depth
            points[:, 2] = np.interp(points[:, 2], np.arange(3), heights)
        vertices = (points * block_size).astype(np.float32)
        normals = z_up(mesh.normals.astype(np.float32), 0) + np.float32(0.0)  # -0.0 -> 0.0
        faces = mesh.faces.astype(np.int64)
        for start in range(0, len(faces), _STL_CHUNK):  # in chunks: bounded memory
            part = faces[start:start + _STL_CHUNK]
            chunk = record[:len(part)]
            chunk["normal"] = normals[part[:, 0]]
            chunk["corners"] = vertices[part]
            file.write(chunk.data.cast("B"))


register_writer("stl", write_stl, check_size, print_size=partial(print_size, writer_name="stl"),
                prepare_theme=checked_theme)
