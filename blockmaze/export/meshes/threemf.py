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
its filament. Vertices are shared within an object (3MF judges manifoldness by vertex indices),
except where two solids of one material touch along an edge only (a solution path's corner at an
entrance, stair blocks of a weave maze; the whole volume seals such contacts, one material's
solid alone keeps those its neighbours' blocks fill): there each solid gets its own copies of the
vertices on that edge (:func:`separate_shells`), so each edge lies in exactly two triangles and the
object holds several shells, as the core specification allows (docs/meshes.md §7). The zip has
fixed time stamps, so the same blocks give the same bytes.

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
        points, triangles = separate_shells(points, point_of.reshape(-1)[np.concatenate(faces)])
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


def separate_shells(points: np.ndarray, triangles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``points`` and ``triangles`` with every edge in exactly two triangles (by vertex index):
    where two solids of one object touch along an edge only, four triangles meet on it, so each
    solid gets its own copies of the vertices there -- separate shells, as the 3MF core
    specification asks (docs/meshes.md §7). Points in blocks on the (half-)block lattice;
    triangles counter-clockwise seen from outside, axis-aligned.

    Around each vertex of such an edge the triangles fall into fans (joined across the vertex's
    edges: a plain edge joins its two triangles, a shared one the two of the same solid, the
    cell beside the edge behind both); every fan but the first gets a new vertex. An edge whose
    two solids meet again around both its ends is split at its middle instead, the middle point
    copied per solid.

    >>> cubes = np.zeros((2, 2, 1), np.uint8); cubes[0, 0, 0] = cubes[1, 1, 0] = 1
    >>> from blockmaze.export.meshes.chunks import chunk_parts
    >>> part = next(chunk_parts(cubes, chunk=0, watertight=False))
    >>> points, point_of = np.unique(part.points(), axis=0, return_inverse=True)
    >>> points, triangles = separate_shells(points, point_of.reshape(-1)[part.faces.astype(np.int64)])
    >>> len(points), sorted(set(np.unique(np.sort(triangles[:, [0, 1, 1, 2, 2, 0]].reshape(-1, 2), axis=1),
    ...                                   axis=0, return_counts=True)[1].tolist()))
    (16, [2])
    """
    triangles = np.asarray(triangles, np.int64)
    points = np.asarray(points, np.float64)
    shared = _shared_edges(triangles)
    if not len(shared):
        return points, triangles
    points, triangles = _split_fans(points, triangles, np.unique(shared))
    left = _shared_edges(triangles)
    if len(left):
        points, triangles = _split_middles(points, triangles, left)
    return points, triangles


def _edge_table(triangles: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each triangle's directed edges (3 per triangle, ``a -> b``), their undirected ids and
    how many triangles hold each id."""
    directed = triangles[:, [0, 1, 1, 2, 2, 0]].reshape(-1, 2)
    _, ids, counts = np.unique(np.sort(directed, axis=1), axis=0, return_inverse=True,
                               return_counts=True)
    return directed, ids.reshape(-1), counts


def _shared_edges(triangles: np.ndarray) -> np.ndarray:
    """The (a, b) vertex pairs of the edges held by more than two triangles."""
    directed, ids, counts = _edge_table(triangles)
    return np.unique(np.sort(directed[counts[ids] > 2], axis=1), axis=0)


def _behind(points: np.ndarray, triangles: np.ndarray, t: np.ndarray, a: np.ndarray,
            b: np.ndarray) -> np.ndarray:
    """int64 (n, 3) keys of the solid cell behind triangle ``t`` at its edge ``a``-``b``: the
    edge's middle, a quarter of a block into the triangle's plane and a quarter behind it (cells
    are half blocks or more, so the key names the cell beside the edge)."""
    corners = points[triangles[t]]
    c = corners.sum(axis=1) - points[a] - points[b]  # the third corner
    along = points[b] - points[a]
    normal = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    into = c - points[a]
    into -= along * ((into * along).sum(axis=1) / (along * along).sum(axis=1))[:, None]
    middle = (points[a] + points[b]) * 4  # in quarter blocks
    return np.rint(middle + np.sign(np.round(into, 9)) - np.sign(np.round(normal, 9))).astype(np.int64)


def _split_fans(points, triangles, vertices):
    """Give every fan of triangles around each of ``vertices`` but the first its own copy."""
    directed, ids, counts = _edge_table(triangles)
    order = np.argsort(triangles.ravel(), kind="stable")
    corner_starts = np.searchsorted(triangles.ravel()[order], vertices)
    corner_stops = np.searchsorted(triangles.ravel()[order], vertices, side="right")
    new_points = [points]
    original, triangles = triangles, triangles.copy()
    next_index = len(points)
    for vertex, start, stop in zip(vertices.tolist(), corner_starts, corner_stops):
        corners = order[start:stop]  # flat corner positions t * 3 + k holding the vertex
        fan = {int(t): int(t) for t in corners // 3}  # union-find: triangle -> a fan-mate
        by_edge: dict[int, list[int]] = {}
        for corner in corners.tolist():
            t, k = divmod(corner, 3)
            for edge in (3 * t + k, 3 * t + (k + 2) % 3):  # the two edges at this corner
                by_edge.setdefault(int(ids[edge]), []).append(edge)
        for edge_id, edges in by_edge.items():
            if counts[edge_id] == 2:
                pairs = [edges]
            else:
                edges = np.array(edges)
                keys = _behind(points, original, edges // 3, directed[edges, 0], directed[edges, 1])
                _, cell = np.unique(keys, axis=0, return_inverse=True)
                pairs = [edges[cell.reshape(-1) == c].tolist() for c in np.unique(cell)]
            for pair in pairs:
                first = _root(fan, pair[0] // 3)
                for edge in pair[1:]:
                    fan[_root(fan, edge // 3)] = first
        fans: dict[int, list[int]] = {}
        for t in fan:
            fans.setdefault(_root(fan, t), []).append(t)
        for extra in sorted(fans)[1:]:
            members = np.array(fans[extra])
            triangles[members] = np.where(triangles[members] == vertex, next_index, triangles[members])
            new_points.append(points[vertex][None])
            next_index += 1
    return np.concatenate(new_points), triangles


def _root(fan: dict[int, int], t: int) -> int:
    """The representative of triangle ``t``'s fan (path halving)."""
    while fan[t] != t:
        fan[t] = fan[fan[t]]
        t = fan[t]
    return t


def _split_middles(points, triangles, edges):
    """Split each of ``edges`` (a, b) at its middle, a middle point per solid behind it."""
    directed = triangles[:, [0, 1, 1, 2, 2, 0]].reshape(-1, 2)
    key = np.sort(directed, axis=1)
    wanted = np.zeros(len(directed), bool)
    for a, b in edges.tolist():
        wanted |= (key[:, 0] == a) & (key[:, 1] == b)
    halves = np.flatnonzero(wanted)
    t, k = halves // 3, halves % 3
    a, b = directed[halves, 0], directed[halves, 1]
    cells = _behind(points, triangles, t, a, b)
    _, middle = np.unique(np.column_stack([np.sort(directed[halves], axis=1), cells]), axis=0,
                          return_inverse=True)
    middle = middle.reshape(-1) + len(points)
    first = np.unique(middle, return_index=True)[1]
    new_points = (points[a[first]] + points[b[first]]) / 2
    keep = np.ones(len(triangles), bool)
    keep[t] = False
    c = triangles[t, (k + 2) % 3]
    split = np.concatenate([np.column_stack([a, middle, c]), np.column_stack([middle, b, c])])
    return (np.concatenate([points, new_points]),
            np.concatenate([triangles[keep], split]))


register_writer("3mf", write_3mf, check_size)
