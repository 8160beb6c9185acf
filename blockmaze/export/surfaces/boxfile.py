"""A puzzle box's files: ``NAME.3mf`` (an object per part: inner, sleeve, lid, base), each part
as a binary STL beside it (``NAME-inner.stl``, ...) and ``NAME.box.json`` (the nub's path and
sizes, the parts' names). All are written in one transaction
(:func:`~blockmaze.export.target.transaction`): each to a temporary in its folder, renamed
into place with ``os.replace`` when every one is written, or none is.

>>> import io, zipfile
>>> from blockmaze.export.surfaces.tube import tube_mesh
>>> ring = tube_mesh(np.full((1, 1), 2.0), [1.0, 0.0], [0.0, 2 * np.pi], 1.0)
>>> out = io.BytesIO()
>>> _ = out.write(threemf_bytes({"inner": ring}))
>>> zipfile.ZipFile(out).namelist()
['3D/3dmodel.model', '[Content_Types].xml', '_rels/.rels']
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import numpy as np

from ...errors import BlockmazeError
from ..meshes.threemf import _RELS, _TYPES
from ..target import open_target, transaction
from ..zipped import write_zip

PARTS = ("inner", "sleeve", "lid", "base")


def threemf_bytes(parts: dict) -> bytes:
    """A 3MF of ``parts`` (name -> points, triangles), an object named after each, millimetres."""
    model = io.StringIO()
    model.write('<?xml version="1.0" encoding="UTF-8"?>\n<model unit="millimeter" xml:lang="en-US" '
                'xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">\n'
                '<metadata name="Application">blockmaze</metadata>\n<resources>\n')
    for index, (name, (points, triangles)) in enumerate(parts.items()):
        model.write(f'<object id="{index + 1}" name="{name}" type="model"><mesh>\n<vertices>\n')
        model.write('<vertex x="%.9g" y="%.9g" z="%.9g"/>\n' * len(points)
                    % tuple(np.asarray(points, np.float64).ravel().tolist()))
        model.write("</vertices>\n<triangles>\n")
        model.write('<triangle v1="%d" v2="%d" v3="%d"/>\n' * len(triangles)
                    % tuple(np.asarray(triangles, np.int64).ravel().tolist()))
        model.write("</triangles>\n</mesh></object>\n")
    model.write("</resources>\n<build>")
    model.write("".join(f'<item objectid="{index + 1}"/>' for index in range(len(parts))))
    model.write("</build>\n</model>\n")
    out = io.BytesIO()
    write_zip(out, {"[Content_Types].xml": _TYPES.encode(), "_rels/.rels": _RELS.encode(),
                    "3D/3dmodel.model": model.getvalue().encode("utf-8")})
    return out.getvalue()


def stl_bytes(points: np.ndarray, triangles: np.ndarray, name: str = "") -> bytes:
    """A binary STL of one mesh: the 80-byte header, the count, then per triangle its unit
    normal, three corners (float32) and a zero attribute.

    >>> len(stl_bytes(np.eye(3), np.array([[0, 1, 2]])))
    134
    """
    corners = np.asarray(points, np.float64)[np.asarray(triangles, np.int64)]
    normal = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    normal /= np.maximum(np.linalg.norm(normal, axis=1, keepdims=True), 1e-300)
    record = np.zeros(len(corners), dtype=[("normal", "<f4", (3,)), ("corners", "<f4", (3, 3)),
                                           ("attribute", "<u2")])
    record["normal"], record["corners"] = normal, corners
    header = f"blockmaze puzzle box {name}, Z-up, units: mm".encode()[:80].ljust(80, b" ")
    return header + np.uint32(len(corners)).tobytes() + record.tobytes()


def box_paths(path: str | os.PathLike) -> dict[str, Path]:
    """Where :func:`write_box` puts each file of ``path`` (a ``.3mf``).

    >>> [p.name for p in box_paths("gift.3mf").values()][:3]
    ['gift.3mf', 'gift.box.json', 'gift-inner.stl']
    """
    path = Path(path)
    if path.suffix.lower() != ".3mf":
        raise BlockmazeError(f"a puzzle box is written as NAME.3mf (its STLs and NAME.box.json "
                             f"beside it), got {path}")
    stem = path.with_suffix("")
    paths = {"3mf": path, "json": stem.with_name(stem.name + ".box.json")}
    paths.update({name: stem.with_name(f"{stem.name}-{name}.stl") for name in PARTS})
    return paths


def write_box(box, path: str | os.PathLike) -> list[Path]:
    """Write ``box`` (a :class:`~.box.PuzzleBox`) as ``path`` (a ``.3mf``), its parts' STLs and
    its ``.box.json`` (see the module notes); the paths written."""
    paths = box_paths(path)
    about = {"parts": list(PARTS), "nub_path": np.round(box.nub_path, 6).tolist(),
             "nub_diameter": box.nub_diameter, "nub_length": box.nub_length,
             "clearance": box.clearance, "diameter": box.diameter, "depth": box.depth,
             "nubs": box.nubs, "units": "mm", "frame": "closed, Z up, the axis along Z"}
    def content(key: str) -> bytes:
        if key == "3mf":
            return threemf_bytes({name: box.parts[name] for name in PARTS})
        if key == "json":
            return (json.dumps(about, indent=1) + "\n").encode()
        points, triangles = box.parts[key]
        return stl_bytes(points, triangles, key)

    with transaction():
        for key, target in paths.items():
            with open_target(target) as file:
                file.write(content(key))
    return list(paths.values())
