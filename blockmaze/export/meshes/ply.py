"""Binary PLY: shared vertices with normals, UVs and their material's colour; Z-up, metres.

PLY has no axis convention; Blender, CAD tools and slicers take Z as up, so the maze is written
Z-up like STL (``(x, D - z, y)``: a rotation, north at the top seen from above) and lies flat on
the ground where it is imported. Vertices are shared where position and normal agree; each carries
its material's colour (``red green blue``) and value (``material``), so tools can split the mesh
again; faces hold only their vertex list (what simple readers expect).

Example
-------
>>> import io
>>> from blockmaze.materials import load_theme
>>> out = io.BytesIO()
>>> write_ply(np.ones((1, 1, 1), np.uint8), out, load_theme())
>>> out.getvalue().split(b"\\n")[2]
b'comment blockmaze: Z-up, metres; block_size 1'
"""

from __future__ import annotations

from typing import BinaryIO

import numpy as np

from ...materials import Theme
from .. import register_writer
from ..minecraft.blockdata import checked_theme  # (its states exist in some release)
from .chunks import chunk_parts, uv_of
from .common import check_block_size, check_flag, check_size, material_color, z_up
from ...errors import BlockmazeError

__all__ = ["write_ply"]

_VERTEX = np.dtype([
    ("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("nx", "<f4"), ("ny", "<f4"), ("nz", "<f4"),
    ("s", "<f4"), ("t", "<f4"), ("red", "u1"), ("green", "u1"), ("blue", "u1"), ("material", "u1"),
])
_FACE = np.dtype([("n", "u1"), ("v", "<u4", (3,))])


def write_ply(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    block_size: float = 1.0,
    watertight: bool = True,
) -> None:
    """Write a binary little-endian PLY, Z-up metres: positions, normals, UVs (s, t), colours."""
    block_size = check_block_size(block_size)
    check_flag("watertight", watertight)
    vertices, faces, offset = [], [], 0
    for part in chunk_parts(blocks, chunk=0, watertight=watertight):
        vertex = np.empty(len(part.positions), dtype=_VERTEX)
        positions = z_up(part.points(), blocks.shape[1]) * block_size
        normals = z_up(part.normals.astype(np.float32), 0) + np.float32(0.0)
        vertex["x"], vertex["y"], vertex["z"] = positions.T
        vertex["nx"], vertex["ny"], vertex["nz"] = normals.T
        vertex["s"], vertex["t"] = (uv_of(part.positions, part.normals) / part.scale).T
        vertex["red"], vertex["green"], vertex["blue"] = np.round(
            np.array(material_color(theme, part.material)) * 255).astype(np.uint8)
        vertex["material"] = part.material
        face = np.empty(len(part.faces), dtype=_FACE)
        face["n"] = 3
        face["v"] = part.faces.astype(np.int64) + offset
        offset += len(vertex)
        vertices.append(vertex)
        faces.append(face)
    if not vertices:
        raise BlockmazeError("the volume has no solid block: there is no surface to write")
    header = "\n".join([
        "ply", "format binary_little_endian 1.0",
        f"comment blockmaze: Z-up, metres; block_size {block_size:g}",
        f"element vertex {offset}",
        *(f"property float {p}" for p in ("x", "y", "z", "nx", "ny", "nz", "s", "t")),
        "property uchar red", "property uchar green", "property uchar blue",
        "property uchar material",
        f"element face {sum(len(f) for f in faces)}",
        "property list uchar uint vertex_indices",
        "end_header",
    ]) + "\n"
    file.write(header.encode("ascii"))
    for vertex in vertices:
        file.write(vertex.tobytes())
    for face in faces:
        file.write(face.tobytes())


register_writer("ply", write_ply, check_size, prepare_theme=checked_theme)
