"""Wavefront OBJ and its material library (.mtl): Y-up, metres, shared vertices.

One ``o``/``g``/``usemtl`` group per material. Positions are shared within a group (``v`` once per
point), so importers see each material as one connected surface; the six axis normals are ``vn``
lines at the top and UVs (world-space, in blocks) are ``vt`` per vertex, so faces read
``f v/vt/vn`` with flat shading kept. Pass ``mtllib="maze.mtl"`` to reference a material library;
written to a file, the OBJ gets its ``.mtl`` beside it (default ``<stem>.mtl``).

The .mtl's ``Kd`` colours are the theme's sRGB colours as they are, since that is how the
importers read them: three.js's ``MTLLoader`` converts ``Kd`` from sRGB to its linear working
space, and Godot's OBJ importer makes ``Kd`` a material's albedo, an sRGB colour; so the OBJ shows
the glTF's colours there (a glTF's colour factors are linear). Blender's importer puts ``Kd``
into its linear Base Color unconverted, so there the OBJ looks lighter than the glTF. Sources in
docs/meshes.md §8. See-through blocks get ``d`` below 1. No ``Ka`` lines (Godot warns about them).

Example
-------
>>> import io
>>> from blockmaze.materials import load_theme
>>> out = io.BytesIO()
>>> write_obj(np.ones((1, 1, 1), np.uint8), out, load_theme(), mtllib="cube.mtl")
>>> out.getvalue().decode().splitlines()[1:3]
['mtllib cube.mtl', 'vn 1 0 0']
"""

from __future__ import annotations

import io
from typing import BinaryIO

import numpy as np

from ...errors import BlockmazeError
from ...materials import Material, Theme
from .. import register_writer
from ..target import target_path, write_sidecar
from ..minecraft.blockdata import checked_theme  # (its states exist in some release)
from .chunks import chunk_parts, uv_of
from .common import (
    check_block_size, check_flag, check_size, material_alpha, material_color, material_name,
)

__all__ = ["write_obj", "write_mtl"]

_TEXT_ROWS = 1 << 16  # lines formatted at a time
_NORMALS = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]])


def write_obj(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    block_size: float = 1.0,
    watertight: bool = True,
    mtllib: str | None = None,
) -> None:
    """Write a Wavefront OBJ, Y-up metres: ``o``/``usemtl`` per material, ``v`` shared per group.

    ``mtllib`` names the material library to reference: written to a file, the OBJ gets its
    ``.mtl`` beside it under that name (default ``<stem>.mtl``); written to a stream, only a given
    ``mtllib`` is referenced (write it with the ``mtl`` writer).
    """
    block_size = check_block_size(block_size)
    check_flag("watertight", watertight)
    if mtllib is not None and (not isinstance(mtllib, str) or not mtllib.strip() or "\n" in mtllib):
        raise BlockmazeError(f"mtllib must be a file name, got {mtllib!r}")
    parts = list(chunk_parts(blocks, chunk=0, watertight=watertight))
    if not parts:
        raise BlockmazeError("the volume has no solid block: there is no surface to write")
    path = target_path(file)
    if path is not None:
        mtllib = mtllib or path.stem + ".mtl"
        library = io.BytesIO()
        write_mtl(blocks, library, theme)
        write_sidecar(path.parent, mtllib, library.getvalue())
    lines = [f"# blockmaze: Y-up, metres; block_size {block_size:g}; "
             f"{sum(len(p.faces) for p in parts)} triangles"]
    if mtllib is not None:
        lines.append(f"mtllib {mtllib}")
    lines += [f"vn {x} {y} {z}" for x, y, z in _NORMALS]
    file.write(("\n".join(lines) + "\n").encode("ascii"))
    v_offset = vt_offset = 1
    for part in parts:
        name = material_name(part.material)
        file.write(f"o {name}\ng {name}\nusemtl {name}\n".encode("ascii"))
        points, point_of = np.unique(part.positions, axis=0, return_inverse=True)
        point_of = point_of.reshape(-1)
        _write_rows(file, "v", points / part.scale * block_size, "%.9g")
        _write_rows(file, "vt", uv_of(part.positions, part.normals).astype(np.float64) / part.scale, "%.9g")
        code = np.argmax(np.abs(part.normals), axis=1) * 2 + (part.normals.sum(axis=1) < 0)
        faces = part.faces.astype(np.int64)
        table = np.stack([point_of[faces] + v_offset, faces + vt_offset, code[faces] + 1], axis=2)
        _write_rows(file, "f", table.reshape(len(faces), 9), "%d/%d/%d", per_row=3)
        v_offset += len(points)
        vt_offset += len(part.positions)


def _write_rows(file: BinaryIO, tag: str, values: np.ndarray, fmt: str,
                per_row: int | None = None) -> None:
    """Write text lines ``tag a b c`` for the rows of a 2-D array (fmt per value or group)."""
    count = per_row if per_row is not None else values.shape[1]
    line = tag + (" " + fmt) * count + "\n"
    for start in range(0, len(values), _TEXT_ROWS):  # in slices: bounded memory
        part = values[start:start + _TEXT_ROWS]
        file.write((line * len(part) % tuple(part.ravel().tolist())).encode("ascii"))


def write_mtl(blocks: np.ndarray, file: BinaryIO, theme: Theme) -> None:
    """Write the Wavefront material library for :func:`write_obj`: one ``newmtl`` per material present.

    Example
    -------
    >>> import io
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_mtl(np.array([[[0, 1]]], np.uint8), out, load_theme())
    >>> out.getvalue().decode().splitlines()[1:3]
    ['newmtl wall', 'Kd 0.478431 0.478431 0.478431']
    """
    present = np.flatnonzero(np.bincount(np.asarray(blocks).ravel(), minlength=256))
    lines = ["# blockmaze materials (Kd: the theme's sRGB colours, as three.js and Godot read them)"]
    for material in present:
        if material == Material.AIR:
            continue
        r, g, b = material_color(theme, int(material))
        lines += [f"newmtl {material_name(int(material))}", f"Kd {r:.6f} {g:.6f} {b:.6f}",
                  "Ks 0 0 0", f"d {material_alpha(theme, int(material)):g}", "illum 1", ""]
    file.write(("\n".join(lines) + "\n").encode("ascii"))


register_writer("obj", write_obj, check_size, prepare_theme=checked_theme)
register_writer("mtl", write_mtl, check_size, prepare_theme=checked_theme)
