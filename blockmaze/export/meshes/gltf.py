"""glTF 2.0 scenes (.glb, .gltf): chunked, indexed, optionally quantized and meshopt-compressed.

Layout: a root node ``maze`` whose scale is the block size in metres; under it one node per
material (``floor``, ``wall``, ``path``, ...; toggle a material in the engine's tree), and under
each of those one node per chunk holding that chunk's part (``wall_3_0_5``: chunk x 3, y 0, z 5),
translated to the chunk's corner in blocks (:mod:`.chunks`). Chunks let an engine cull what is off
screen and keep parts small: 16-bit indices wherever a part has at most 65535 vertices (a maze's
parts of the default 128-block chunks do).

Vertices are shared where position and normal agree. By default they are plain floats, which
every importer reads: a file that *requires* an extension is refused whole by an importer that
lacks it, and Godot 4 lacks ``KHR_mesh_quantization`` (docs/meshes.md). ``quantize=True`` (implied
by ``compress="meshopt"``) writes them with that extension: positions unsigned 16-bit lattice
points of the chunk, normals normalized bytes, with ``uv=True`` world-space UVs in blocks as
16-bit integers. ``uv=True`` is for users who add a tiling texture (the materials have none, so
by default no UVs are written, as gltfpack drops unused ones): a texture repeats once per block.
``compress="meshopt"`` writes the buffers with ``EXT_meshopt_compression`` (needs the optional
``meshoptimizer`` package): about 5x smaller again, read by three.js, Babylon.js and Unity
glTFast (with its meshopt package), not by Godot 4, Blender 5.0 or Unreal's glTF importer.

Materials are PBR (metallic 0, roughness 1) with the theme's colour (linear); see-through blocks
(glass, ice) get an alpha below 1 and ``alphaMode: BLEND``.

Example
-------
>>> import io, json
>>> from blockmaze.materials import load_theme
>>> out = io.BytesIO()
>>> write_gltf(np.ones((1, 1, 1), np.uint8), out, load_theme())
>>> [node["name"] for node in json.loads(out.getvalue())["nodes"]]
['maze', 'wall', 'wall_0_0_0']
"""

from __future__ import annotations

import base64
import json
import struct
from typing import BinaryIO

import numpy as np

from ...errors import BlockmazeError
from ...materials import Theme
from .. import register_writer
from ..minecraft.blockdata import checked_theme  # (its states exist in some release)
from .chunks import DEFAULT_CHUNK, Part, check_chunk, check_chunk_count, chunk_parts, uv_of
from .common import (
    check_block_size, check_flag, check_size, material_alpha, material_color, material_name,
    srgb_to_linear,
)
from .greedy import bounds, collision_boxes

__all__ = ["write_glb", "write_gltf", "gltf_document", "COLLISION_NODE", "COMPRESSIONS"]

COLLISION_NODE = "collision-colonly"
COMPRESSIONS = (None, "meshopt")
_ARRAY_BUFFER, _ELEMENT_ARRAY_BUFFER = 34962, 34963
_BYTE, _UBYTE, _SHORT, _USHORT, _UINT, _FLOAT = 5120, 5121, 5122, 5123, 5125, 5126
_TYPES = {np.dtype(np.int8): _BYTE, np.dtype(np.uint8): _UBYTE, np.dtype(np.int16): _SHORT,
          np.dtype(np.uint16): _USHORT, np.dtype(np.uint32): _UINT, np.dtype(np.float32): _FLOAT}
_QUANTIZED_LIMIT = 32767  # lattice points per chunk side that int16 UVs hold


class _Buffer:
    """Buffer views and accessors over one binary buffer, optionally meshopt-compressed."""

    def __init__(self, compress: str | None) -> None:
        self.compress = compress
        self.blobs: list[bytes | memoryview] = []  # the binary chunk, in order
        self.blob_length = 0
        self.length = 0  # the (uncompressed) buffer's length
        self.views: list[dict] = []
        self.accessors: list[dict] = []
        if compress:
            import meshoptimizer

            meshoptimizer.encode_vertex_version(0)  # the version EXT_meshopt_compression reads
            meshoptimizer.encode_index_version(1)
            self.meshopt = meshoptimizer

    def _append(self, data: bytes | memoryview) -> int:
        start = self.blob_length
        self.blobs.append(data)
        padding = -len(data) % 4
        if padding:
            self.blobs.append(b"\0" * padding)
        self.blob_length += len(data) + padding
        return start

    def view(self, array: np.ndarray, indices: bool = False) -> int:
        """A buffer view of a 2-D array (rows = vertices), or of a triangle index array."""
        array = np.ascontiguousarray(array)
        stride = array.itemsize * (1 if indices else array.shape[1])
        view: dict[str, object] = {"buffer": 0, "byteOffset": 0, "byteLength": array.nbytes}
        if not indices:
            view["byteStride"] = stride
        view["target"] = _ELEMENT_ARRAY_BUFFER if indices else _ARRAY_BUFFER
        if self.compress:
            if indices:
                data = self.meshopt.encode_index_buffer(array.reshape(-1).astype(np.uint32),
                                                        array.size, int(array.max()) + 1)
            else:
                data = self.meshopt.encode_vertex_buffer(array, len(array), stride)
            offset = self._append(bytes(data))
            view["buffer"] = 1
            view["byteOffset"] = self.length
            view["extensions"] = {"EXT_meshopt_compression": {
                "buffer": 0, "byteOffset": offset, "byteLength": len(data), "byteStride": stride,
                "count": array.size if indices else len(array),
                "mode": "TRIANGLES" if indices else "ATTRIBUTES"}}
            self.length += array.nbytes + (-array.nbytes % 4)
        else:
            view["byteOffset"] = self._append(array.data.cast("B"))
            self.length = self.blob_length
        self.views.append(view)
        return len(self.views) - 1

    def accessor(self, array: np.ndarray, kind: str, normalized: bool = False,
                 with_bounds: bool = False, width: int | None = None, indices: bool = False) -> int:
        entry: dict[str, object] = {"bufferView": self.view(array, indices),
                                    "componentType": _TYPES[array.dtype]}
        if normalized:
            entry["normalized"] = True
        entry["count"] = array.size if indices else len(array)
        entry["type"] = kind
        if with_bounds:
            low, high = bounds(array[:, :width])
            number = float if array.dtype == np.float32 else int
            entry["min"] = [number(v) for v in low]
            entry["max"] = [number(v) for v in high]
        self.accessors.append(entry)
        return len(self.accessors) - 1

    def buffers(self) -> list[dict]:
        if not self.compress:
            return [{"byteLength": self.blob_length}]
        return [{"byteLength": self.blob_length},
                {"byteLength": self.length, "extensions": {"EXT_meshopt_compression": {"fallback": True}}}]


def _optimize(part: Part) -> Part:
    """The part with triangles in vertex-cache order and vertices in first-use order (what meshopt
    compresses best); the same triangles."""
    import meshoptimizer

    faces = part.faces.reshape(-1).astype(np.uint32)
    ordered = np.empty_like(faces)
    meshoptimizer.optimize_vertex_cache(ordered, faces, len(faces), len(part.positions))
    remap = np.empty(len(part.positions), dtype=np.uint32)
    meshoptimizer.optimize_vertex_fetch_remap(remap, ordered, len(ordered), len(part.positions))
    positions = np.empty_like(part.positions)
    normals = np.empty_like(part.normals)
    positions[remap] = part.positions
    normals[remap] = part.normals
    return Part(part.material, part.chunk, part.origin, part.scale, positions, normals,
                remap[ordered].reshape(-1, 3))


def _attributes(buffer: _Buffer, part: Part, quantize: bool, with_uv: bool) -> dict:
    count = len(part.positions)
    if quantize:
        positions = np.zeros((count, 4), np.uint16)  # padded to 4-byte vertices
        positions[:, :3] = part.positions
        normals = np.zeros((count, 4), np.int8)
        normals[:, :3] = part.normals * 127
        attributes = {
            "POSITION": buffer.accessor(positions, "VEC3", with_bounds=True, width=3),
            "NORMAL": buffer.accessor(normals, "VEC3", normalized=True),
        }
    else:
        attributes = {
            "POSITION": buffer.accessor(part.positions.astype(np.float32), "VEC3", with_bounds=True),
            "NORMAL": buffer.accessor(part.normals.astype(np.float32), "VEC3"),
        }
    if with_uv:
        uv = uv_of(part.positions, part.normals)
        uv[:, 1] *= -1  # glTF's v runs down the image
        if quantize and part.scale == 1:
            uv = uv.astype(np.int16)
        else:
            uv /= part.scale
        attributes["TEXCOORD_0"] = buffer.accessor(uv, "VEC2")
    return attributes


def _box_mesh(boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Closed boxes as (vertices float32 (8n, 3), faces uint32 (12n, 3)), triangles wound outward."""
    corners = np.array([[i & 1, (i >> 1) & 1, (i >> 2) & 1] for i in range(8)])  # x, y, z bits
    triangles = np.array([
        [0, 4, 6], [0, 6, 2], [1, 3, 7], [1, 7, 5], [0, 1, 5], [0, 5, 4],
        [2, 6, 7], [2, 7, 3], [0, 2, 3], [0, 3, 1], [4, 5, 7], [4, 7, 6],
    ])
    low, high = boxes[:, :3].astype(np.float32), boxes[:, 3:].astype(np.float32)
    vertices = np.where(corners[None] == 1, high[:, None], low[:, None]).reshape(-1, 3)
    faces = (triangles[None] + 8 * np.arange(len(boxes))[:, None, None]).reshape(-1, 3)
    return np.ascontiguousarray(vertices, dtype=np.float32), faces.astype(np.uint32)


def _index_array(faces: np.ndarray, vertex_count: int) -> np.ndarray:
    """16-bit indices where the vertices allow (the largest value is reserved), else 32-bit."""
    return faces.astype(np.uint16 if vertex_count <= 65535 else np.uint32)


def gltf_document(blocks, theme, block_size=1.0, watertight=True, collision=False,
                  chunk=DEFAULT_CHUNK, quantize=None, compress=None, uv=False, navmesh=False):
    """The glTF document (a dict) and its binary buffer as a list of bytes and memoryviews.
    ``quantize`` None: only when compressed; ``navmesh`` adds the walkable floor's node
    (:func:`blockmaze.export.kits.navmesh.block_floor`).

    >>> from blockmaze.materials import load_theme
    >>> document, blobs = gltf_document(np.ones((1, 1, 1), np.uint8), load_theme())
    >>> "extensionsRequired" in document, sum(map(len, blobs)) % 4
    (False, 0)
    >>> gltf_document(np.ones((1, 1, 1), np.uint8), load_theme(), quantize=True)[0]["extensionsRequired"]
    ['KHR_mesh_quantization']
    """
    quantize = bool(compress) if quantize is None else quantize
    block_size = check_block_size(block_size)
    check_flag("collision", collision)
    check_flag("watertight", watertight)
    check_flag("quantize", quantize)
    check_flag("uv", uv)
    check_flag("navmesh", navmesh)
    chunk = check_chunk(chunk)
    check_chunk_count(np.shape(blocks), chunk)
    if compress not in COMPRESSIONS:
        raise BlockmazeError(f"compress must be one of: none, meshopt; got {compress!r}")
    if compress:
        try:
            import meshoptimizer  # noqa: F401
        except ImportError:
            raise BlockmazeError("meshopt compression (--compress meshopt) needs the meshoptimizer package: "
                                 "pip install meshoptimizer (or, in a blockmaze checkout, pip install '.[meshopt]')") from None
    blocks = np.asarray(blocks)
    floor = None
    if navmesh:  # (refused before any meshing where the floor steps)
        from ..kits.navmesh import block_floor

        floor = block_floor(blocks)
    buffer = _Buffer(compress)
    by_material: dict[int, list[int]] = {}
    nodes: list[dict] = []  # the chunk nodes; the root and material nodes are put in front
    meshes: list[dict] = []
    for part in chunk_parts(blocks, chunk, watertight):
        if quantize and max(blocks.shape if not chunk else (chunk,) * 3) * part.scale > _QUANTIZED_LIMIT:
            raise BlockmazeError(f"quantized vertices hold chunks of up to {_QUANTIZED_LIMIT // part.scale} "
                                 "blocks a side; give a smaller chunk or no quantization")
        if compress:
            part = _optimize(part)
        name = f"{material_name(part.material)}_{part.chunk[0]}_{part.chunk[1]}_{part.chunk[2]}"
        primitive = {"attributes": _attributes(buffer, part, quantize, uv),
                     "indices": buffer.accessor(_index_array(part.faces, len(part.positions)),
                                                "SCALAR", indices=True),
                     "material": part.material, "mode": 4}  # material: renumbered below
        meshes.append({"name": name, "primitives": [primitive]})
        node = {"name": name, "mesh": len(meshes) - 1}
        if any(part.origin):
            node["translation"] = [float(v) for v in part.origin]
        if part.scale != 1:
            node["scale"] = [1 / part.scale] * 3
        by_material.setdefault(part.material, []).append(len(nodes))
        nodes.append(node)
    if not nodes:
        raise BlockmazeError("the volume has no solid block: there is no surface to write")
    materials, material_index, groups = [], {}, []
    for value in sorted(by_material):
        material_index[value] = len(materials)
        color = [round(srgb_to_linear(c), 6) for c in material_color(theme, value)]
        alpha = material_alpha(theme, value)
        entry = {"name": material_name(value), "pbrMetallicRoughness": {
            "baseColorFactor": color + [alpha], "metallicFactor": 0.0, "roughnessFactor": 1.0}}
        if alpha < 1:
            entry["alphaMode"] = "BLEND"
        materials.append(entry)
    for mesh in meshes:
        mesh["primitives"][0]["material"] = material_index[mesh["primitives"][0]["material"]]
    head = 1 + len(by_material)  # the root, then a node per material
    for value in sorted(by_material):
        groups.append({"name": material_name(value),
                       "children": [head + i for i in by_material[value]]})
    extra = []
    if collision:
        box_vertices, box_faces = _box_mesh(collision_boxes(blocks))
        meshes.append({"name": COLLISION_NODE, "primitives": [{
            "attributes": {"POSITION": buffer.accessor(box_vertices, "VEC3", with_bounds=True)},
            "indices": buffer.accessor(_index_array(box_faces, len(box_vertices)), "SCALAR",
                                       indices=True),
            "mode": 4}]})
        # hidden where the importer knows KHR_node_visibility (Godot 4.5+; not three.js r187,
        # Blender 5.0 or assimp 5.2, which show it: docs/meshes.md §4); Godot's -colonly import
        # makes it a collision shape either way
        extra.append({"name": COLLISION_NODE, "mesh": len(meshes) - 1,
                      "extensions": {"KHR_node_visibility": {"visible": False}}})
    if floor is not None:
        from ..kits.navmesh import NAVMESH_NODE

        meshes.append({"name": NAVMESH_NODE, "primitives": [{
            "attributes": {"POSITION": buffer.accessor(floor.vertices, "VEC3", with_bounds=True)},
            "indices": buffer.accessor(_index_array(floor.triangles(), len(floor.vertices)),
                                       "SCALAR", indices=True), "mode": 4}]})
        extra.append({"name": NAVMESH_NODE, "mesh": len(meshes) - 1})
    root = {"name": "maze", "children": list(range(1, 1 + len(groups)))
            + list(range(head + len(nodes), head + len(nodes) + len(extra)))}
    if block_size != 1:
        root["scale"] = [block_size] * 3
    required = (["KHR_mesh_quantization"] if quantize else []) + (["EXT_meshopt_compression"] if compress else [])
    document = {"asset": {"version": "2.0", "generator": "blockmaze"}}
    if required or collision:
        document["extensionsUsed"] = required + (["KHR_node_visibility"] if collision else [])
    if required:
        document["extensionsRequired"] = required
    y, z, x = blocks.shape
    document.update({
        "scene": 0,
        "scenes": [{"name": "maze", "nodes": [0],
                    "extras": {"block_size_m": block_size, "up": "+Y", "north": "-Z",
                               "size_blocks": [x, y, z], "chunk": chunk}}],
        "nodes": [root] + groups + nodes + extra,
        "meshes": meshes,
        "materials": materials,
        "accessors": buffer.accessors,
        "bufferViews": buffer.views,
        "buffers": buffer.buffers(),
    })
    return document, buffer.blobs


def _json_bytes(document: dict) -> bytes:
    return json.dumps(document, separators=(",", ":")).encode("utf-8")


def write_glb(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    block_size: float = 1.0,
    watertight: bool = True,
    collision: bool = False,
    chunk: int = DEFAULT_CHUNK,
    quantize: bool | None = None,
    compress: str | None = None,
    uv: bool = False,
    navmesh: bool = False,
) -> None:
    """Write a binary glTF 2.0 scene (Y-up, metres; see the module notes).

    ``block_size`` is a block's edge in metres; ``watertight=False`` writes the raw greedy mesh;
    ``collision=True`` adds a ``collision-colonly`` node of merged boxes (Godot makes it a
    collision shape; other viewers show it); ``chunk`` is the chunk side in blocks (0: none);
    ``quantize=True`` writes integer vertices (``KHR_mesh_quantization``, which Godot 4 refuses;
    the default, None, quantizes only compressed files); ``compress="meshopt"`` compresses the buffers;
    ``uv=True`` adds world-space UVs in blocks (for a tiling texture added in the engine);
    ``navmesh=True`` adds ``floor-navmesh``, the walkable floor (Godot imports it as a
    navigation mesh; a maze whose floor steps, with stairs, is refused).

    Example
    -------
    >>> import io
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_glb(np.ones((1, 1, 1), np.uint8), out, load_theme(), block_size=0.5)
    >>> out.getvalue()[:4]
    b'glTF'
    """
    document, blobs = gltf_document(blocks, theme, block_size, watertight, collision, chunk,
                                    quantize, compress, uv, navmesh)
    pack_glb(document, blobs, file)


def pack_glb(document: dict, blobs: list, file: BinaryIO) -> None:
    """Write a glTF document and its binary buffer (a list of bytes and memoryviews, padded to
    4 bytes) as one .glb file: the header, the JSON chunk and the BIN chunk."""
    length = sum(len(b) for b in blobs)
    text = _json_bytes(document)
    text += b" " * (-len(text) % 4)
    total = 12 + 8 + len(text) + 8 + length
    if total >= 2**32:
        raise BlockmazeError(f"the mesh takes {total} bytes; a .glb holds less than 4 GiB")
    file.write(struct.pack("<4sII", b"glTF", 2, total))
    file.write(struct.pack("<I4s", len(text), b"JSON"))
    file.write(text)
    file.write(struct.pack("<I4s", length, b"BIN\0"))
    for blob in blobs:
        file.write(blob)


def write_gltf(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    block_size: float = 1.0,
    watertight: bool = True,
    collision: bool = False,
    chunk: int = DEFAULT_CHUNK,
    quantize: bool | None = None,
    compress: str | None = None,
    uv: bool = False,
    navmesh: bool = False,
) -> None:
    """Write a glTF 2.0 JSON scene with its buffer embedded as a data URI (one self-contained file).

    The same scene as :func:`write_glb`; prefer .glb for big mazes (base64 adds a third).

    Example
    -------
    >>> import io, json
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_gltf(np.ones((1, 1, 1), np.uint8), out, load_theme())
    >>> json.loads(out.getvalue())["accessors"][0]["componentType"]   # float
    5126
    """
    document, blobs = gltf_document(blocks, theme, block_size, watertight, collision, chunk,
                                    quantize, compress, uv, navmesh)
    document["buffers"][0]["uri"] = (
        "data:application/octet-stream;base64," + base64.b64encode(b"".join(blobs)).decode("ascii"))
    file.write(_json_bytes(document))


register_writer("glb", write_glb, check_size, prepare_theme=checked_theme)
register_writer("gltf", write_gltf, check_size, prepare_theme=checked_theme)
