"""3MF print files: one closed, manifold object per material, Z-up, millimetres.

What the slicers read (from their source): PrusaSlicer and Bambu Studio / OrcaSlicer keep the
*objects* of a 3MF apart and let each take its own filament; base-material colours on triangles
are not read as filament assignments (PrusaSlicer loads a single coloured mesh in one colour).
Cura loads each object as its own mesh, assignable to an extruder. So each material is written as
its own object, named after the material, closed on its own (the blocks of that material alone,
stairs cut into steps first, so a riser belongs to the stairs only: no two objects overlap),
with its colour as the object's base material (``pid``/``pindex``: lib3mf, Windows 3D Viewer,
Bambu Studio show it). The objects share the volume's frame, so they fit together: PrusaSlicer
asks whether to treat them as one object with several parts (answer yes), then give each part
its filament. Vertices are shared within an object (3MF judges manifoldness by vertex indices) and
the zip has fixed time stamps, so the same blocks give the same bytes.

Example
-------
>>> import io, zipfile
>>> from blockmaze.materials import load_theme
>>> out = io.BytesIO()
>>> write_3mf(np.ones((1, 1, 1), np.uint8), out, load_theme())
>>> sorted(zipfile.ZipFile(out).namelist())
['3D/3dmodel.model', '[Content_Types].xml', '_rels/.rels']
"""

from __future__ import annotations

import io
from typing import BinaryIO

import numpy as np

from ...errors import BlockmazeError
from ...materials import Theme
from .. import register_writer
from ..zipped import write_zip
from .chunks import chunk_parts, step_scale, step_shapes
from .common import check_block_size, check_size, material_color, material_name, z_up

__all__ = ["write_3mf"]

_TEXT_ROWS = 1 << 16
_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/>'
    "</Types>\n")
_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Target="/3D/3dmodel.model" Id="rel0" '
    'Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/></Relationships>\n')


def write_3mf(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    block_size: float = 5.0,
) -> None:
    """Write a 3MF print file: an object per material, each closed and manifold, Z-up,
    ``block_size`` millimetres, coloured by its material (see the module notes)."""
    block_size = check_block_size(block_size)
    blocks = np.asarray(blocks, dtype=np.uint8)
    materials = [int(m) for m in np.flatnonzero(np.bincount(blocks.ravel(), minlength=256)) if m]
    if not materials:
        raise BlockmazeError("the volume has no solid block: there is no surface to write")
    colors = "".join(
        f'<base name="{material_name(m)}" displaycolor="#'
        f'{"".join(f"{round(c * 255):02X}" for c in material_color(theme, m))}FF"/>'
        for m in materials)
    model = io.StringIO()
    model.write('<?xml version="1.0" encoding="UTF-8"?>\n<model unit="millimeter" xml:lang="en-US" '
                'xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">\n'
                '<metadata name="Application">blockmaze</metadata>\n<resources>\n'
                f'<basematerials id="1">{colors}</basematerials>\n')
    scale = step_scale(blocks)  # stairs are steps, facing as in the whole volume
    facing = step_shapes(blocks) if scale == 2 else None
    for index, material in enumerate(materials):
        positions, faces, offset = [], [], 0
        for part in chunk_parts(blocks, chunk=0, watertight=True, scale=scale, facing=facing, only=material):
            points, point_of = np.unique(part.points(), axis=0, return_inverse=True)
            positions.append(points)
            faces.append(point_of.reshape(-1)[part.faces.astype(np.int64)] + offset)
            offset += len(points)
        # one material: faces of different normals share corners only after merging positions
        points, point_of = np.unique(np.concatenate(positions), axis=0, return_inverse=True)
        triangles = point_of.reshape(-1)[np.concatenate(faces)]
        vertices = z_up(points, blocks.shape[1]) * block_size
        model.write(f'<object id="{index + 2}" name="{material_name(material)}" type="model" '
                    f'pid="1" pindex="{index}"><mesh>\n<vertices>\n')
        for start in range(0, len(vertices), _TEXT_ROWS):
            part = vertices[start:start + _TEXT_ROWS]
            model.write('<vertex x="%.6g" y="%.6g" z="%.6g"/>\n' * len(part) % tuple(part.ravel().tolist()))
        model.write("</vertices>\n<triangles>\n")
        for start in range(0, len(triangles), _TEXT_ROWS):
            part = triangles[start:start + _TEXT_ROWS]
            model.write('<triangle v1="%d" v2="%d" v3="%d"/>\n' * len(part) % tuple(part.ravel().tolist()))
        model.write("</triangles>\n</mesh></object>\n")
    model.write("</resources>\n<build>")
    model.write("".join(f'<item objectid="{index + 2}"/>' for index in range(len(materials))))
    model.write("</build>\n</model>\n")
    parts = {"[Content_Types].xml": _TYPES, "_rels/.rels": _RELS, "3D/3dmodel.model": model.getvalue()}
    write_zip(file, {name: text.encode("utf-8") for name, text in parts.items()})


register_writer("3mf", write_3mf, check_size)
