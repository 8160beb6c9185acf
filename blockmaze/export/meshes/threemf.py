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
from functools import partial
from typing import BinaryIO

import numpy as np

from ...errors import BlockmazeError
from ...materials import Theme
from .. import register_writer
from ..zipped import write_zip
from ..minecraft.blockdata import checked_theme  # (its states exist in some release)
from .chunks import chunk_parts, step_scale, step_shapes
from .common import check_block_size, check_size, material_color, material_name, z_up
from .printing import (DEFAULT_BED, DEFAULT_BLOCK_SIZE, check_bed, print_size, printed_size,
                       solid_shape, warn_if_too_large)

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
    block_size: float = DEFAULT_BLOCK_SIZE,
    bed: tuple[float, float] | None = DEFAULT_BED,
) -> None:
    """Write a 3MF print file: an object per material, each closed and manifold, Z-up,
    ``block_size`` millimetres, coloured by its material (see the module notes); a part larger
    than ``bed`` (width, depth in mm; None: not checked) is written with a one-line warning
    saying what would fit (:mod:`~blockmaze.export.meshes.printing`)."""
    block_size = check_block_size(block_size)
    bed = check_bed(bed)
    blocks = np.asarray(blocks, dtype=np.uint8)
    materials = [int(m) for m in np.flatnonzero(np.bincount(blocks.ravel(), minlength=256)) if m]
    if not materials:
        raise BlockmazeError("the volume has no solid block: there is no surface to write")
    warn_if_too_large(printed_size(solid_shape(blocks), block_size), bed, block_size=block_size)
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
            rows = vertices[start:start + _TEXT_ROWS]
            model.write('<vertex x="%.6g" y="%.6g" z="%.6g"/>\n' * len(rows) % tuple(rows.ravel().tolist()))
        model.write("</vertices>\n<triangles>\n")
        for start in range(0, len(triangles), _TEXT_ROWS):
            rows = triangles[start:start + _TEXT_ROWS]
            model.write('<triangle v1="%d" v2="%d" v3="%d"/>\n' * len(rows) % tuple(rows.ravel().tolist()))
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

    Around each vertex of such an edge the triangles fall into fans, joined across the vertex's
    edges: a plain edge joins its two triangles, a shared one the two of the same solid (the
    cell beside the edge behind both). Every fan but the first gets a new vertex. An edge whose
    two solids meet again around both its ends is split at its middle instead, the middle point
    copied per solid. An object without such edges comes back as it was.

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
    directed, edge, counts = _edge_table(triangles, len(points))
    if not (counts > 2).any():
        return points, triangles
    points, triangles = _split_fans(points, triangles, directed, edge, counts)
    directed, edge, counts = _edge_table(triangles, len(points))
    if (counts > 2).any():
        points, triangles = _split_middles(points, triangles, directed, edge, counts)
    return points, triangles


def _edge_table(triangles: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The half-edges of the triangles (``3 t + k`` runs from corner k to corner k + 1 of triangle
    t), each half-edge's undirected edge id and how many half-edges each edge has."""
    directed = triangles[:, [0, 1, 1, 2, 2, 0]].reshape(-1, 2)
    keys = directed.min(axis=1) * n + directed.max(axis=1)
    _, edge, counts = np.unique(keys, return_inverse=True, return_counts=True)
    return directed, edge.reshape(-1), counts


def _behind(points: np.ndarray, triangles: np.ndarray, half: np.ndarray,
            directed: np.ndarray) -> np.ndarray:
    """int64 (n, 3) keys of the solid cell behind each half-edge's triangle at that edge: the
    edge's middle, a quarter of a block into the triangle's plane and a quarter behind it (cells
    are half blocks or more, so the key names the cell beside the edge)."""
    a, b = points[directed[half, 0]], points[directed[half, 1]]
    corners = points[triangles[half // 3]]
    into = corners.sum(axis=1) - a - b - a  # from the edge's start to the third corner
    along = b - a
    into -= along * ((into * along).sum(axis=1) / (along * along).sum(axis=1))[:, None]
    normal = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    return np.rint((a + b) * 4 + np.sign(np.round(into, 9)) - np.sign(np.round(normal, 9))).astype(np.int64)


def _mates(points, triangles, directed, edge, counts) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of half-edges ``(h1, h2)`` that join two triangles of one solid: the two of a plain
    edge, and on an edge of four triangles the two with the same cell behind them."""
    pair = edge.copy()
    shared = np.flatnonzero(counts[edge] > 2)
    cells = _behind(points, triangles, shared, directed)
    _, cell = np.unique(np.column_stack([edge[shared], cells]), axis=0, return_inverse=True)
    pair[shared] = len(counts) + cell.reshape(-1)
    order = np.argsort(pair, kind="stable")
    first, second = order[:-1], order[1:]
    joined = pair[first] == pair[second]
    return first[joined], second[joined]


def _split_fans(points, triangles, directed, edge, counts):
    """Give every fan of triangles around each vertex of a shared edge but the first its own copy."""
    h1, h2 = _mates(points, triangles, directed, edge, counts)
    vertices = np.unique(directed[counts[edge] > 2])
    corner_vertex = triangles.ravel()
    # h = 3 t + k runs from corner 3 t + k to corner 3 t + (k + 1) % 3; its mate runs back
    after1 = h1 - h1 % 3 + (h1 + 1) % 3
    after2 = h2 - h2 % 3 + (h2 + 1) % 3
    links = np.concatenate([np.column_stack([h1, after2]), np.column_stack([after1, h2])])
    links = links[np.isin(corner_vertex[links[:, 0]], vertices)]
    corners = np.unique(links)
    label = np.arange(len(corners))
    ends = np.searchsorted(corners, links)
    while True:  # the smallest corner of each fan, spread along the links (fans are short cycles)
        spread = label.copy()
        np.minimum.at(spread, ends[:, 0], label[ends[:, 1]])
        np.minimum.at(spread, ends[:, 1], label[ends[:, 0]])
        spread = spread[spread]
        if (spread == label).all():
            break
        label = spread
    fans, fan_of = np.unique(np.column_stack([corner_vertex[corners], label]), axis=0,
                             return_inverse=True)
    extra = np.r_[False, fans[1:, 0] == fans[:-1, 0]]  # a vertex's later fans get new vertices
    new_index = np.full(len(fans), -1, np.int64)
    new_index[extra] = len(points) + np.arange(np.count_nonzero(extra))
    moved = new_index[fan_of.reshape(-1)]
    out = corner_vertex.copy()
    out[corners[moved >= 0]] = moved[moved >= 0]
    return np.concatenate([points, points[fans[extra, 0]]]), out.reshape(-1, 3)


def _split_middles(points, triangles, directed, edge, counts):
    """Split shared edges at their middles, a middle point per solid behind each, round by round
    so that no triangle has two of its edges split at once."""
    while (counts > 2).any():
        halves = np.flatnonzero(counts[edge] > 2)
        chosen, used = set(), set()
        for e in np.unique(edge[halves]).tolist():
            owners = set((halves[edge[halves] == e] // 3).tolist())
            if not owners & used:
                chosen.add(e)
                used |= owners
        halves = halves[np.isin(edge[halves], list(chosen))]
        t, k = halves // 3, halves % 3
        a, b = directed[halves, 0], directed[halves, 1]
        cells = _behind(points, triangles, halves, directed)
        _, middle = np.unique(np.column_stack([edge[halves], cells]), axis=0, return_inverse=True)
        middle = middle.reshape(-1) + len(points)
        first = np.unique(middle, return_index=True)[1]
        keep = np.ones(len(triangles), bool)
        keep[t] = False
        c = triangles[t, (k + 2) % 3]
        split = np.concatenate([np.column_stack([a, middle, c]), np.column_stack([middle, b, c])])
        points = np.concatenate([points, (points[a[first]] + points[b[first]]) / 2])
        triangles = np.concatenate([triangles[keep], split])
        directed, edge, counts = _edge_table(triangles, len(points))
    return points, triangles


register_writer("3mf", write_3mf, check_size, print_size=partial(print_size, writer_name="3mf"),
                prepare_theme=checked_theme)
