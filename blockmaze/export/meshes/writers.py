"""Triangle meshes for game engines, DCC tools and 3D printers: glTF (.glb/.gltf), OBJ, PLY, STL.

The surface comes from :mod:`blockmaze.mesh` (greedy rectangles). By default it is watertight
and manifold -- no T-junctions, every edge shared by exactly two triangles -- as long as no two
solid blocks touch along an edge only (never the case in an extruded 2n+1 maze); ``watertight=False``
gives the raw greedy mesh (fewer triangles, for rendering only).

The files are written with numpy, not through trimesh's exporters: trimesh's scene export took
26 s and 2.7 GiB for the .glb of a 1000x1000-cell maze (7.5 M triangles), this writer 2-4 s
(about 2 CPU seconds) and about 1 GiB peak (bench/bench_mesh.py). Same input, same bytes, in
every format.

Axes and units
--------------
Blocks ``(y, z, x)`` are up, south, east. Render formats (glTF, OBJ, PLY) are **Y-up, metres**:
block ``(x, y, z)`` lands at ``(x, y, z) * block_size`` -- the glTF frame is right-handed Y-up like
Minecraft's, so this is the identity rotation: east is +X, up is +Y, south is +Z (north, row 0, is
the -Z side; Godot's forward). Print formats (STL) are **Z-up, millimetres**: ``(x, D - z, y) *
block_size`` with D the volume's depth (a proper rotation about X plus a shift into the positive
octant; seen from above, north is at the top as in the maze's picture). Triangles wind
counter-clockwise seen from outside in both frames (positive signed volume).

``block_size`` is metres for render formats (default 1, a Minecraft block) and millimetres for STL
(default 5: a 20x20-cell maze, 41 blocks wide, is 205 mm and fits a common 220 mm print bed).

Render layout
-------------
One node, mesh and material per material present, named ``floor``, ``wall``, ``path``, ``start``,
``goal``, ... Each rectangle has its own vertices with an axis-aligned normal (flat shading) and
world-space UVs in blocks (TEXCOORD_0; glTF's default sampler repeats, so a tiling texture shows
once per block). Materials are PBR (metallic 0, roughness 1) with the material's colour: the
theme's colours (``Theme.color``: the theme's, else blockmaze's defaults).

Engines
-------
* Godot: ``collision=True`` adds a node ``collision-colonly`` whose mesh is the solid blocks as
  merged boxes (3D greedy); Godot's importer turns a ``-colonly`` node into a StaticBody3D with a
  collision shape and no visible mesh.
* Unreal: the glTF importer scales metres to centimetres (import scale 100) and converts Y-up to
  Z-up itself. Unreal picks up collision from meshes named ``UBX_<mesh>_NN``, each a single box;
  the merged boxes of ``collision=True`` are one mesh, so for Unreal split that node into its boxes
  (or use "Use Complex Collision As Simple").
* Unity: glTF importers (UnityGLTF, glTFast) convert handedness by negating X; 1 unit = 1 m.
* Blender: the glTF importer converts Y-up to Z-up; for OBJ choose Forward -Z, Up Y.

OBJ and its materials
---------------------
A writer fills one file, so the OBJ is self-contained: one ``o``/``g``/``usemtl`` group per
material, per-vertex ``vt`` and ``vn``. Pass ``mtllib="maze.mtl"`` to add an ``mtllib`` line and
write that file beside it with the ``mtl`` writer (``blockmaze.write(volume, "maze.mtl")``):
importers that find no .mtl still keep the groups and material names.

PLY has no materials: vertices carry the material's colour (``red green blue``) and value
(``material``).

3MF is not offered: trimesh's 3MF export needs lxml and networkx (not blockmaze dependencies) and
writes random UUIDs and zip time stamps, so its bytes would not be deterministic.

Example
-------
>>> import io, blockmaze as bm
>>> volume = bm.extrude(bm.to_blocks(bm.generate((2, 2), rng=1)), height=2)
>>> out = io.BytesIO()
>>> bm.write(volume, out, format="glb")
>>> out.getvalue()[:4]
b'glTF'
"""

from __future__ import annotations

import io

import base64
import json
import struct
import zipfile
from typing import BinaryIO

import numpy as np

from ...errors import BlockmazeError
from ...materials import Material, Theme
from .greedy import Surface, bounds, collision_boxes, mesh_blocks
from .. import register_writer, size_limits
from ..target import target_path, write_sidecar

# float32 holds every integer up to 2**24 exactly: block coordinates stay exact.
MAX_SIDE = 2**24
COLLISION_NODE = "collision-colonly"
_STL_CHUNK = 1 << 20  # triangles per write
_TEXT_ROWS = 1 << 16  # OBJ lines formatted at a time


def material_name(material: int) -> str:
    """The node/mesh/material name of a material value.

    >>> material_name(1), material_name(42)
    ('wall', 'material42')
    """
    try:
        return Material(material).name.lower()
    except ValueError:
        return f"material{int(material)}"


def material_color(theme: Theme, material: int) -> tuple[float, float, float]:
    """A material's sRGB colour as floats in 0..1 (see ``Theme.color``).

    >>> from blockmaze.materials import load_theme
    >>> len(material_color(load_theme(), Material.START))
    3
    """
    return tuple(c / 255 for c in theme.color(int(material)))


def _check_block_size(block_size: float) -> float:
    if isinstance(block_size, bool) or not isinstance(block_size, (int, float, np.number)):
        raise BlockmazeError(f"block size must be a number > 0, got {block_size!r}")
    if not (np.isfinite(block_size) and block_size > 0):
        raise BlockmazeError(f"block size must be a number > 0, got {block_size!r}")
    return float(block_size)


def _surface(blocks: np.ndarray, watertight: bool) -> Surface:
    if not isinstance(watertight, (bool, np.bool_)):
        raise BlockmazeError(f"watertight must be true or false, got {watertight!r}")
    surface = mesh_blocks(blocks, watertight=bool(watertight))
    if not surface.groups:
        raise BlockmazeError("the volume has no solid block: there is no surface to write")
    return surface


def _srgb_to_linear(c: float) -> float:
    """glTF colour factors are linear; theme colours are sRGB."""
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _box_mesh(boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Closed boxes as (vertices float32 (8n, 3), faces uint32 (12n, 3)), triangles wound outward."""
    corners = np.array([[i & 1, (i >> 1) & 1, (i >> 2) & 1] for i in range(8)])  # x, y, z bits
    triangles = np.array([
        [0, 4, 6], [0, 6, 2],  # -x
        [1, 3, 7], [1, 7, 5],  # +x
        [0, 1, 5], [0, 5, 4],  # -y
        [2, 6, 7], [2, 7, 3],  # +y
        [0, 2, 3], [0, 3, 1],  # -z
        [4, 5, 7], [4, 7, 6],  # +z
    ])
    low, high = boxes[:, :3].astype(np.float32), boxes[:, 3:].astype(np.float32)
    vertices = np.where(corners[None] == 1, high[:, None], low[:, None]).reshape(-1, 3)
    faces = (triangles[None] + 8 * np.arange(len(boxes))[:, None, None]).reshape(-1, 3)
    return np.ascontiguousarray(vertices, dtype=np.float32), faces.astype(np.uint32)


_ARRAY_BUFFER, _ELEMENT_ARRAY_BUFFER = 34962, 34963
_FLOAT, _UNSIGNED_INT = 5126, 5125


class _GltfBuilder:
    """Collects arrays into one binary buffer and the glTF JSON that describes them."""

    def __init__(self) -> None:
        self.chunks: list[np.ndarray] = []
        self.length = 0
        self.views: list[dict] = []
        self.accessors: list[dict] = []

    def view(self, array: np.ndarray, target: int) -> int:
        assert array.flags.c_contiguous and self.length % 4 == 0
        self.chunks.append(array)
        view = {"buffer": 0, "byteOffset": self.length, "byteLength": array.nbytes}
        if target == _ARRAY_BUFFER:  # required when several accessors share a vertex view
            view["byteStride"] = array.itemsize * array.shape[1]
        view["target"] = target
        self.views.append(view)
        self.length += array.nbytes
        return len(self.views) - 1

    def accessor(self, view: int, array: np.ndarray, start: int, stop: int, kind: str,
                 with_bounds: bool = False) -> int:
        """An accessor of rows [start, stop) of ``array`` (stored whole in bufferView ``view``)."""
        row_bytes = array.itemsize * (array.shape[1] if array.ndim == 2 else 1)
        entry = {"bufferView": view, "byteOffset": start * row_bytes,
                 "componentType": _UNSIGNED_INT if array.dtype == np.uint32 else _FLOAT,
                 "count": (stop - start) * (3 if kind == "SCALAR" else 1), "type": kind}
        if with_bounds:
            low, high = bounds(array[start:stop])
            entry["min"] = [float(v) for v in low]
            entry["max"] = [float(v) for v in high]
        self.accessors.append(entry)
        return len(self.accessors) - 1


def _gltf(blocks, theme, block_size, watertight, collision):
    """The glTF document (a dict) and the arrays of its binary buffer, in order."""
    block_size = _check_block_size(block_size)
    if not isinstance(collision, (bool, np.bool_)):
        raise BlockmazeError(f"collision must be true or false, got {collision!r}")
    surface = _surface(blocks, watertight)
    vertices = surface.vertices
    vertices *= np.float32(block_size)  # in place: the surface is ours
    faces = surface.faces
    for group in surface.groups:  # glTF indices count from each primitive's first vertex
        faces[group.face_start:group.face_stop] -= np.uint32(group.vertex_start)
    builder = _GltfBuilder()
    position_view = builder.view(vertices, _ARRAY_BUFFER)
    normal_view = builder.view(surface.normals, _ARRAY_BUFFER)
    uv = surface.uv
    uv[:, 1] *= -1  # glTF's v runs down the image (the OpenGL-style v of the surface runs up)
    uv_view = builder.view(uv, _ARRAY_BUFFER)
    index_view = builder.view(faces, _ELEMENT_ARRAY_BUFFER)
    nodes, meshes, materials = [], [], []
    for group in surface.groups:
        name = material_name(group.material)
        v0, v1 = group.vertex_start, group.vertex_stop
        attributes = {
            "POSITION": builder.accessor(position_view, vertices, v0, v1, "VEC3", with_bounds=True),
            "NORMAL": builder.accessor(normal_view, surface.normals, v0, v1, "VEC3"),
            "TEXCOORD_0": builder.accessor(uv_view, uv, v0, v1, "VEC2"),
        }
        indices = builder.accessor(index_view, faces, group.face_start, group.face_stop, "SCALAR")
        color = [round(_srgb_to_linear(c), 6) for c in material_color(theme, group.material)]
        materials.append({"name": name, "pbrMetallicRoughness": {
            "baseColorFactor": color + [1.0], "metallicFactor": 0.0, "roughnessFactor": 1.0}})
        meshes.append({"name": name, "primitives": [{
            "attributes": attributes, "indices": indices, "material": len(materials) - 1,
            "mode": 4}]})
        nodes.append({"name": name, "mesh": len(meshes) - 1})
    if collision:
        box_vertices, box_faces = _box_mesh(collision_boxes(blocks))
        box_vertices *= np.float32(block_size)
        position = builder.accessor(builder.view(box_vertices, _ARRAY_BUFFER), box_vertices,
                                    0, len(box_vertices), "VEC3", with_bounds=True)
        indices = builder.accessor(builder.view(box_faces, _ELEMENT_ARRAY_BUFFER), box_faces,
                                   0, len(box_faces), "SCALAR")
        meshes.append({"name": COLLISION_NODE, "primitives": [{
            "attributes": {"POSITION": position}, "indices": indices, "mode": 4}]})
        nodes.append({"name": COLLISION_NODE, "mesh": len(meshes) - 1})
    document = {
        "asset": {"version": "2.0", "generator": "blockmaze"},
        "scene": 0,
        "scenes": [{"name": "maze", "nodes": list(range(len(nodes))),
                    "extras": {"block_size_m": block_size, "up": "+Y", "north": "-Z"}}],
        "nodes": nodes,
        "meshes": meshes,
        "materials": materials,
        "accessors": builder.accessors,
        "bufferViews": builder.views,
        "buffers": [{"byteLength": builder.length}],
    }
    return document, builder.chunks, builder.length


def _json_bytes(document: dict) -> bytes:
    return json.dumps(document, separators=(",", ":"), sort_keys=False).encode("utf-8")


def write_glb(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    block_size: float = 1.0,
    watertight: bool = True,
    collision: bool = False,
) -> None:
    """Write a binary glTF 2.0 scene: one node, mesh and PBR material per material (Y-up, metres).

    ``block_size`` is a block's edge in metres; ``watertight=False`` writes the raw greedy mesh;
    ``collision=True`` adds a ``collision-colonly`` node of merged boxes (see the module notes).

    Example
    -------
    >>> import io
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_glb(np.ones((1, 1, 1), np.uint8), out, load_theme(), block_size=0.5)
    >>> out.getvalue()[:4]
    b'glTF'
    """
    document, chunks, length = _gltf(blocks, theme, block_size, watertight, collision)
    text = _json_bytes(document)
    text += b" " * (-len(text) % 4)
    padding = -length % 4
    total = 12 + 8 + len(text) + 8 + length + padding
    if total >= 2**32:
        raise BlockmazeError(f"the mesh takes {total} bytes; a .glb holds less than 4 GiB")
    file.write(struct.pack("<4sII", b"glTF", 2, total))
    file.write(struct.pack("<I4s", len(text), b"JSON"))
    file.write(text)
    file.write(struct.pack("<I4s", length + padding, b"BIN\0"))
    for chunk in chunks:
        file.write(memoryview(chunk).cast("B"))
    file.write(b"\0" * padding)


def write_gltf(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    block_size: float = 1.0,
    watertight: bool = True,
    collision: bool = False,
) -> None:
    """Write a glTF 2.0 JSON scene with its buffer embedded as a data URI (one self-contained file).

    The same scene as :func:`write_glb`; prefer .glb for big mazes (base64 adds a third).

    Example
    -------
    >>> import io, json
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_gltf(np.ones((1, 1, 1), np.uint8), out, load_theme())
    >>> [node["name"] for node in json.loads(out.getvalue())["nodes"]]
    ['wall']
    """
    document, chunks, length = _gltf(blocks, theme, block_size, watertight, collision)
    payload = b"".join(memoryview(chunk).cast("B") for chunk in chunks)
    document["buffers"][0]["uri"] = (
        "data:application/octet-stream;base64," + base64.b64encode(payload).decode("ascii"))
    file.write(_json_bytes(document))


def write_stl(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    block_size: float = 5.0,
    watertight: bool = True,
) -> None:
    """Write a binary STL of all solid blocks as one closed solid, Z-up, ``block_size`` millimetres.

    Example
    -------
    >>> import io
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_stl(np.ones((1, 1, 1), np.uint8), out, load_theme())
    >>> len(out.getvalue()) == 80 + 4 + 12 * 50   # header, count, 12 triangles
    True
    """
    block_size = _check_block_size(block_size)
    surface = _surface(blocks, watertight)
    vertices = z_up(surface.vertices, blocks.shape[1])
    vertices *= np.float32(block_size)
    normals = z_up(surface.normals, 0)
    normals[:, 1] += 0.0  # -0.0 -> 0.0
    faces = surface.faces
    if len(faces) >= 2**32:
        raise BlockmazeError(f"{len(faces)} triangles are too many for a binary STL")
    file.write(b"blockmaze binary STL, Z-up, units: mm".ljust(80, b" "))
    file.write(struct.pack("<I", len(faces)))
    record = np.zeros(min(len(faces), _STL_CHUNK), dtype=[
        ("normal", "<f4", (3,)), ("corners", "<f4", (3, 3)), ("attribute", "<u2")])
    for start in range(0, len(faces), _STL_CHUNK):  # in chunks: bounded memory
        part = faces[start:start + _STL_CHUNK]
        chunk = record[:len(part)]
        chunk["normal"] = normals[part[:, 0]]
        chunk["corners"] = vertices[part]
        file.write(memoryview(chunk).cast("B"))


_3MF_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/>'
    "</Types>\n")
_3MF_RELS = (
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
    """Write a 3MF print file: one closed, manifold mesh, Z-up, ``block_size`` millimetres, each
    triangle coloured by its material (a base-materials group) for multi-colour printers.

    Vertices are shared between triangles (3MF judges a mesh manifold by its vertex indices), and
    the zip has fixed time stamps, so the same blocks give the same bytes.

    Example
    -------
    >>> import zipfile
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_3mf(np.ones((1, 1, 1), np.uint8), out, load_theme())
    >>> sorted(zipfile.ZipFile(out).namelist())
    ['3D/3dmodel.model', '[Content_Types].xml', '_rels/.rels']
    """
    block_size = _check_block_size(block_size)
    surface = _surface(blocks, watertight=True)
    corners = z_up(surface.vertices, blocks.shape[1]).astype(np.float64) * block_size
    vertices, shared = np.unique(corners, axis=0, return_inverse=True)
    faces = shared.reshape(-1)[surface.faces]
    materials = [group.material for group in surface.groups]
    pindex = np.empty(len(faces), dtype=np.int64)
    for index, group in enumerate(surface.groups):
        pindex[group.face_start:group.face_stop] = index
    colors = "".join(
        f'<base name="{material_name(m)}" displaycolor="#{"".join(f"{round(c * 255):02X}" for c in material_color(theme, m))}FF"/>'
        for m in materials)
    model = io.StringIO()
    model.write('<?xml version="1.0" encoding="UTF-8"?>\n<model unit="millimeter" xml:lang="en-US" '
                'xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">\n<resources>\n'
                f'<basematerials id="1">{colors}</basematerials>\n'
                '<object id="2" type="model" pid="1" pindex="0"><mesh>\n<vertices>\n')
    for start in range(0, len(vertices), _TEXT_ROWS):
        part = vertices[start:start + _TEXT_ROWS]
        model.write('<vertex x="%.6g" y="%.6g" z="%.6g"/>\n' * len(part) % tuple(part.ravel().tolist()))
    model.write("</vertices>\n<triangles>\n")
    rows = np.column_stack([faces, pindex])
    for start in range(0, len(rows), _TEXT_ROWS):
        part = rows[start:start + _TEXT_ROWS]
        model.write('<triangle v1="%d" v2="%d" v3="%d" pid="1" p1="%d"/>\n' * len(part) % tuple(part.ravel().tolist()))
    model.write('</triangles>\n</mesh></object>\n</resources>\n<build><item objectid="2"/></build>\n</model>\n')
    with zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for name, text in (("[Content_Types].xml", _3MF_TYPES), ("_rels/.rels", _3MF_RELS),
                           ("3D/3dmodel.model", model.getvalue())):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, text.encode("utf-8"))


def z_up(vertices: np.ndarray, depth: int) -> np.ndarray:
    """Block coordinates (x, y, z), Y-up, to Z-up ``(x, depth - z, y)``: a rotation, not a mirror.

    >>> z_up(np.array([[1.0, 2.0, 3.0]], np.float32), depth=10).tolist()
    [[1.0, 7.0, 2.0]]
    """
    out = np.empty_like(vertices)
    out[:, 0] = vertices[:, 0]
    out[:, 1] = depth - vertices[:, 2]
    out[:, 2] = vertices[:, 1]
    return out


def write_ply(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    block_size: float = 1.0,
    watertight: bool = True,
) -> None:
    """Write a binary little-endian PLY, Y-up metres: positions, normals, UVs (s, t), colours.

    Vertices carry their material's colour (red, green, blue) and value (``material``), so tools
    can split the mesh again; faces hold only their vertex list (what simple readers expect).

    Example
    -------
    >>> import io
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_ply(np.ones((1, 1, 1), np.uint8), out, load_theme())
    >>> out.getvalue().split(b"\\n")[2]
    b'comment blockmaze: Y-up, metres; block_size 1'
    """
    block_size = _check_block_size(block_size)
    surface = _surface(blocks, watertight)
    vertex = np.empty(len(surface.vertices), dtype=[
        ("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("nx", "<f4"), ("ny", "<f4"), ("nz", "<f4"),
        ("s", "<f4"), ("t", "<f4"), ("red", "u1"), ("green", "u1"), ("blue", "u1"),
        ("material", "u1"),
    ])
    positions = surface.vertices * np.float32(block_size)
    vertex["x"], vertex["y"], vertex["z"] = positions.T
    vertex["nx"], vertex["ny"], vertex["nz"] = surface.normals.T
    vertex["s"], vertex["t"] = surface.uv.T
    face = np.empty(len(surface.faces), dtype=[("n", "u1"), ("v", "<u4", (3,))])
    face["n"] = 3
    face["v"] = surface.faces
    for group in surface.groups:
        rgb = np.round(np.array(material_color(theme, group.material)) * 255).astype(np.uint8)
        vertex[["red", "green", "blue"]][group.vertex_start:group.vertex_stop] = tuple(rgb)
        vertex["material"][group.vertex_start:group.vertex_stop] = group.material
    header = "\n".join([
        "ply", "format binary_little_endian 1.0",
        f"comment blockmaze: Y-up, metres; block_size {block_size:g}",
        f"element vertex {len(vertex)}",
        *(f"property float {p}" for p in ("x", "y", "z", "nx", "ny", "nz", "s", "t")),
        "property uchar red", "property uchar green", "property uchar blue",
        "property uchar material",
        f"element face {len(face)}",
        "property list uchar uint vertex_indices",
        "end_header",
    ]) + "\n"
    file.write(header.encode("ascii"))
    file.write(vertex.tobytes())
    file.write(face.tobytes())


def write_obj(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    block_size: float = 1.0,
    watertight: bool = True,
    mtllib: str | None = None,
) -> None:
    """Write a Wavefront OBJ, Y-up metres: ``o``/``usemtl`` per material, then ``v``, ``vt``, ``vn``.

    ``mtllib`` names the material library to reference: written to a file, the OBJ gets its
    ``.mtl`` beside it under that name (default ``<stem>.mtl``); written to a stream, only a given
    ``mtllib`` is referenced (write it with the ``mtl`` writer). Every
    vertex has its own ``vt`` and ``vn`` line with the same index (``f a/a/a``), the layout that
    simple readers (meshio) assume.

    Example
    -------
    >>> import io
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_obj(np.ones((1, 1, 1), np.uint8), out, load_theme(), mtllib="cube.mtl")
    >>> out.getvalue().decode().splitlines()[1:5]
    ['mtllib cube.mtl', 'o wall', 'g wall', 'usemtl wall']
    """
    block_size = _check_block_size(block_size)
    if mtllib is not None and (not isinstance(mtllib, str) or not mtllib.strip() or "\n" in mtllib):
        raise BlockmazeError(f"mtllib must be a file name, got {mtllib!r}")
    path = target_path(file)
    if path is not None:
        mtllib = mtllib or path.stem + ".mtl"
        library = io.BytesIO()
        write_mtl(blocks, library, theme)
        write_sidecar(path.parent, mtllib, library.getvalue())
    surface = _surface(blocks, watertight)
    positions = surface.vertices.astype(np.float64) * block_size
    lines = [f"# blockmaze: Y-up, metres; block_size {block_size:g}; "
             f"{len(surface.vertices)} vertices, {len(surface.faces)} triangles"]
    if mtllib is not None:
        lines.append(f"mtllib {mtllib}")
    file.write(("\n".join(lines) + "\n").encode("ascii"))
    for group in surface.groups:
        name = material_name(group.material)
        v = slice(group.vertex_start, group.vertex_stop)
        file.write(f"o {name}\ng {name}\nusemtl {name}\n".encode("ascii"))
        _write_rows(file, "v", positions[v], "%.9g")
        _write_rows(file, "vt", surface.uv[v].astype(np.float64), "%.9g")
        _write_rows(file, "vn", surface.normals[v].astype(np.int64), "%d")
        corners = surface.faces[group.face_start:group.face_stop].astype(np.int64) + 1
        table = np.repeat(corners, 3, axis=1)
        _write_rows(file, "f", table, "%d/%d/%d", per_row=3)


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
    >>> out.getvalue().decode().splitlines()[1]
    'newmtl wall'
    """
    present = np.flatnonzero(np.bincount(np.asarray(blocks).ravel(), minlength=256))
    lines = ["# blockmaze materials"]
    for material in present:
        if material == Material.AIR:
            continue
        r, g, b = material_color(theme, int(material))
        lines += [f"newmtl {material_name(int(material))}", f"Kd {r:.6f} {g:.6f} {b:.6f}",
                  "Ka 0 0 0", "Ks 0 0 0", "d 1", "illum 1", ""]
    file.write(("\n".join(lines) + "\n").encode("ascii"))


check_size = size_limits("a mesh (float32 block coordinates)", max_side=MAX_SIDE)


register_writer("glb", write_glb, check_size)
register_writer("gltf", write_gltf, check_size)
register_writer("obj", write_obj, check_size)
register_writer("mtl", write_mtl, check_size)
register_writer("ply", write_ply, check_size)
register_writer("3mf", write_3mf, check_size)
register_writer("stl", write_stl, check_size)
