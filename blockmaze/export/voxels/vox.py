"""MagicaVoxel ``.vox`` (file version 200): every non-air block a voxel, coloured by the theme.

Layout (facts and sources in ``docs/voxels.md``): ``"VOX "``, Int32 version, then a ``MAIN``
chunk whose children are, per model, ``SIZE`` (x, y, z) and ``XYZI`` (count, then x, y, z,
colour index as bytes); the scene graph (``nTRN`` root -> ``nGRP`` -> per model ``nTRN`` with
its translation ``_t`` -> ``nSHP`` naming the model); ``RGBA`` (256 colours, entry i-1 for
colour index i); and ``MATL`` for glass and light materials. Chunks are little-endian.

Axes: .vox is Z-up and right-handed; our blocks are (y, z, x) with z pointing south, so voxel
``(x, L-1-z, y)`` holds block ``[y, z, x]`` (north stays at the top, as in every Z-up writer).
A model holds at most 256 voxels a side, so a larger build is split into 256-voxel tiles, each
a model placed by its transform node; a node's translation is the model's centre, which is only
a whole number for even sides, so every model's size is rounded up to even and all readers
agree where it goes. Colour index = material value (1..9), so a palette entry is a material.

Example
-------
>>> import io
>>> from blockmaze.materials import load_theme
>>> out = io.BytesIO()
>>> write_vox(np.ones((1, 1, 1), np.uint8), out, load_theme())
>>> out.getvalue()[:8]
b'VOX \\xc8\\x00\\x00\\x00'
"""

from __future__ import annotations

import struct
from typing import BinaryIO

import numpy as np

from ...errors import BlockmazeError
from ...materials import Material, Theme
from .. import register_writer, size_limits
from ..minecraft.blockdata import checked_theme  # (its states exist in some release)

VERSION = 200
MODEL_SIDE = 256  # the most voxels a model holds along each axis (XYZI stores bytes)

check_size = size_limits(".vox")


def _chunk(name: bytes, content: bytes, children: bytes = b"") -> bytes:
    return name + struct.pack("<ii", len(content), len(children)) + content + children


def _string(text: str) -> bytes:
    data = text.encode("ascii")
    return struct.pack("<i", len(data)) + data


def _dict(items: dict[str, str]) -> bytes:
    return struct.pack("<i", len(items)) + b"".join(_string(k) + _string(v) for k, v in items.items())


def _transform(node: int, child: int, layer: int, frame: dict[str, str]) -> bytes:
    return _chunk(b"nTRN", struct.pack("<i", node) + _dict({}) + struct.pack("<iiii", child, -1, layer, 1)
                  + _dict(frame))


def _materials(theme: Theme, present: np.ndarray) -> list[bytes]:
    """MATL chunks: glass blocks as MagicaVoxel glass, light blocks as emitters, others diffuse."""
    out = []
    for value in (int(v) for v in present if v):
        state = theme.minecraft.get(value, "")
        if "glass" in state.split("[")[0]:
            props = {"_type": "_glass", "_trans": "0.5", "_alpha": "0.5", "_ior": "0.5", "_rough": "0.1"}
        elif value == Material.LIGHT:
            props = {"_type": "_emit", "_emit": "0.5", "_flux": "1"}
        else:
            continue
        out.append(_chunk(b"MATL", struct.pack("<i", value) + _dict(props)))
    return out


def vox_axes(blocks: np.ndarray) -> np.ndarray:
    """A (y, z, x) volume seen as .vox's (x, y, z), Z-up with y pointing north (a view, no copy).

    >>> vox_axes(np.arange(8, dtype=np.uint8).reshape(2, 2, 2))[1, 0, 0]   # east, north, bottom
    np.uint8(3)
    """
    return blocks.transpose(2, 1, 0)[:, ::-1, :]


def write_vox(blocks: np.ndarray, file: BinaryIO, theme: Theme) -> None:
    """Write a (y, z, x) volume as a MagicaVoxel .vox scene (see the module docstring)."""
    check_size(blocks.shape)
    volume = vox_axes(blocks)
    models, shapes = [], []
    for ox in range(0, volume.shape[0], MODEL_SIDE):
        for oy in range(0, volume.shape[1], MODEL_SIDE):
            for oz in range(0, volume.shape[2], MODEL_SIDE):
                tile = volume[ox:ox + MODEL_SIDE, oy:oy + MODEL_SIDE, oz:oz + MODEL_SIDE]
                xyz = np.nonzero(tile)
                if not len(xyz[0]):
                    continue
                voxels = np.empty((len(xyz[0]), 4), np.uint8)
                voxels[:, 0], voxels[:, 1], voxels[:, 2] = xyz
                voxels[:, 3] = tile[xyz]
                size = [side + side % 2 for side in tile.shape]  # even: its centre is a whole voxel
                models.append(_chunk(b"SIZE", struct.pack("<3i", *size))
                              + _chunk(b"XYZI", struct.pack("<i", len(voxels)) + voxels.tobytes()))
                shapes.append((ox + size[0] // 2, oy + size[1] // 2, oz + size[2] // 2))
    if not models:
        raise BlockmazeError("the volume has no solid block: a .vox file needs at least one voxel")
    children = models
    graph = [_transform(0, 1, -1, {}),
             _chunk(b"nGRP", struct.pack("<i", 1) + _dict({}) + struct.pack("<i", len(shapes))
                    + struct.pack(f"<{len(shapes)}i", *range(2, 2 + 2 * len(shapes), 2)))]
    for k, (x, y, z) in enumerate(shapes):
        graph.append(_transform(2 + 2 * k, 3 + 2 * k, 0, {"_t": f"{x} {y} {z}"}))
        graph.append(_chunk(b"nSHP", struct.pack("<i", 3 + 2 * k) + _dict({}) + struct.pack("<i", 1)
                            + struct.pack("<i", k) + _dict({})))
    colours = np.zeros((256, 4), np.uint8)
    colours[:, 3] = 255
    present = np.flatnonzero(np.bincount(blocks.ravel(), minlength=256))
    for value in present:
        if value:
            colours[value - 1, :3] = theme.color(int(value))
    children += graph + [_chunk(b"RGBA", colours.tobytes())] + _materials(theme, present)
    body = b"".join(children)
    file.write(b"VOX " + struct.pack("<i", VERSION))
    file.write(_chunk(b"MAIN", b"", body))


register_writer("vox", write_vox, check_size, prepare_theme=checked_theme)
