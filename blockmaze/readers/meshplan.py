"""The solid blocks of a mesh blockmaze wrote (binary .stl and .ply, .obj, glTF), recovered
from its surface.

blockmaze's meshes are the boundary of the solid blocks (faces between two solid blocks are
never written, see :mod:`blockmaze.export.meshes.greedy`), every corner on the lattice of block
corners. So a block is solid exactly where a vertical ray from below its centre crosses the
surface's level faces an odd number of times: the level triangles are toggled onto the columns
whose centres they cover, plane by plane, and a running parity up each column gives the
blocks. The block size is the least gap between the corners' coordinates (a maze's outer wall
is one block thick); a mesh whose corners are not on one lattice of that size is refused.
.obj and glTF are Y-up (glTF's nodes place their meshes; its collision boxes are left out),
the .stl and .ply Z-up with north at the top (``(x, D - z, y)``, as the writers put it).

Example
-------
>>> import io, blockmaze as bm
>>> out = io.BytesIO()
>>> blocks = np.array([[[1, 1, 1]], [[1, 0, 1]]], np.uint8)
>>> bm.write(blocks, out, format="stl")
>>> mesh_solid(mesh_triangles(out.getvalue(), ".stl"), 100).astype(int).tolist()
[[[1, 1, 1]], [[1, 0, 1]]]
"""

from __future__ import annotations

import numpy as np

from ..errors import BadFileError
from ..support.kernels import kernel

_PLY_FACE = np.dtype([("count", "u1"), ("corners", "<u4", 3)])  # blockmaze's: triangles
# a point just off each column's centre, so no triangle's edge (between lattice points) holds it
_OFF = (0.5 + 1e-4 * 2 ** 0.5, 0.5 + 1e-4 * 3 ** 0.5)


def mesh_triangles(data: bytes, suffix: str) -> np.ndarray:
    """The ``(n, 3, 3)`` triangles (corners ``x, y, z``, Y-up, z south) of a binary STL, a
    binary PLY or an OBJ file's bytes."""
    from .meshes import STL_RECORD

    if suffix == ".stl":
        if len(data) < 84 or len(data) != 84 + 50 * int(np.frombuffer(data, "<u4", 1, 80)[0]):
            raise BadFileError("not a binary STL: its length is not its triangle count's")
        return _from_z_up(np.frombuffer(data, STL_RECORD, offset=84)["v"])
    if suffix == ".ply":
        return _from_z_up(_ply_triangles(data))
    if suffix in (".glb", ".gltf"):
        try:
            return _gltf_triangles(data, suffix)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
            raise BadFileError(f"a glTF that is not as blockmaze writes it ({type(error).__name__}: "
                               f"{error})") from None
    points: list[list[float]] = []
    faces: list[list[int]] = []
    for line in data.split(b"\n"):
        words = line.split()
        if words[:1] == [b"v"] and len(words) >= 4:
            points.append([float(w) for w in words[1:4]])
        elif words[:1] == [b"f"] and len(words) >= 4:
            ring = [int(w.split(b"/")[0]) for w in words[1:]]
            faces.extend([ring[0], ring[k], ring[k + 1]] for k in range(1, len(ring) - 1))
    table, index = np.array(points, np.float64).reshape(-1, 3), np.array(faces, np.int64).reshape(-1, 3)
    if index.size and (index.min() < 1 or index.max() > len(table)):
        raise BadFileError("a face names a vertex the file does not hold")
    return table[index - 1]


def _from_z_up(corners: np.ndarray) -> np.ndarray:
    """Z-up corners ``(x, D - z, y)`` as Y-up ones, z south (shifted: only gaps matter)."""
    return corners.astype(np.float64)[:, :, [0, 2, 1]] * np.array([1.0, 1.0, -1.0])


def _ply_triangles(data: bytes) -> np.ndarray:
    """The triangles of a binary PLY as blockmaze writes it (vertices, then triangles)."""
    from .meshes import ply_header

    end, counts, vertex, _ = ply_header(data[:1 << 16])
    if b"element face" not in data[:end] or \
            not data[:end].rstrip().endswith(b"property list uchar uint vertex_indices"):
        raise BadFileError("a PLY whose faces are not a list uchar uint vertex_indices, as "
                           "blockmaze writes them")
    start, points, faces = end + len(b"end_header\n"), counts[b"vertex"], counts[b"face"]
    if len(data) < start + points * vertex.itemsize + faces * _PLY_FACE.itemsize:
        raise BadFileError("the PLY is shorter than the vertices and faces it declares")
    rows = np.frombuffer(data, vertex, points, start)
    table = np.stack([rows[name] for name in (vertex.names or ())[:3]], axis=1)
    listed = np.frombuffer(data, _PLY_FACE, faces, start + points * vertex.itemsize)
    if (listed["count"] != 3).any() or (listed["corners"] >= points).any():
        raise BadFileError("a PLY face that is not a triangle of its vertices")
    return table[listed["corners"].astype(np.int64)]


_COMPONENTS = {5120: "i1", 5121: "u1", 5122: "<i2", 5123: "<u2", 5125: "<u4", 5126: "<f4"}


def _gltf_triangles(data: bytes, suffix: str) -> np.ndarray:
    """The triangles of a glTF 2.0 (.glb, or .gltf with its buffers in data: URIs) as blockmaze
    writes it: the scene's meshes, placed by their nodes' translations and scales (Y-up), its
    collision boxes (``collision-colonly``) left out; compressed buffers are refused."""
    import base64

    from ..export.meshes.gltf import COLLISION_NODE
    from .base import load_json

    if suffix == ".glb":
        if data[:4] != b"glTF" or len(data) < 20:
            raise BadFileError("not a binary glTF file (no glTF header)")
        size = int.from_bytes(data[12:16], "little")
        document = load_json(data[20:20 + size], "a glTF JSON chunk")
        at = 20 + size
        buffers = [data[at + 8:at + 8 + int.from_bytes(data[at:at + 4], "little")]]
    else:
        document = load_json(data, "a glTF file")
        uris = [buffer.get("uri", "") for buffer in document.get("buffers", [])]
        if not all(uri.startswith("data:") and ";base64," in uri for uri in uris):
            raise BadFileError("a .gltf whose buffers are not embedded (data: URIs) is not read back")
        buffers = [base64.b64decode(uri.split(",", 1)[1]) for uri in uris]
    needs = [name for name in document.get("extensionsRequired", ()) if name != "KHR_mesh_quantization"]
    if needs:
        raise BadFileError(f"a glTF that needs {', '.join(map(str, needs))} (compressed) is not "
                           "read back: write it without --compress")

    def read(index: int) -> np.ndarray:
        accessor = document["accessors"][index]
        if accessor.get("normalized") or "sparse" in accessor:
            raise BadFileError("a glTF accessor normalized or sparse: not read back")
        view = document["bufferViews"][accessor["bufferView"]]
        width = {"SCALAR": 1, "VEC3": 3}[accessor["type"]]
        kind = np.dtype(_COMPONENTS[accessor["componentType"]])
        stride = view.get("byteStride") or kind.itemsize * width
        start = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
        raw = buffers[view.get("buffer", 0)][start:start + stride * accessor["count"]]
        rows = np.lib.stride_tricks.as_strided(np.frombuffer(raw + bytes(stride), kind),
                                               (accessor["count"], width), (stride, kind.itemsize))
        return rows.astype(np.float64 if kind.kind == "f" or width == 3 else np.int64)

    found: list[np.ndarray] = []
    nodes = document["nodes"]

    def place(index: int, offset: np.ndarray, scale: np.ndarray, depth: int = 0) -> None:
        node = nodes[index]
        if node.get("name") == COLLISION_NODE or depth > 32:
            return
        if "rotation" in node or "matrix" in node:
            raise BadFileError("a glTF node turned or given a matrix: not a mesh of blockmaze's blocks")
        offset = offset + scale * np.array(node.get("translation", (0, 0, 0)), np.float64)
        scale = scale * np.array(node.get("scale", (1, 1, 1)), np.float64)
        for primitive in document["meshes"][node["mesh"]]["primitives"] if "mesh" in node else ():
            if primitive.get("mode", 4) != 4:
                raise BadFileError("a glTF primitive that is not triangles")
            points = read(primitive["attributes"]["POSITION"]) * scale + offset
            order = read(primitive["indices"]).reshape(-1) if "indices" in primitive \
                else np.arange(len(points))
            found.append(points[order.reshape(-1, 3)])
        for child in node.get("children", ()):
            place(child, offset, scale, depth + 1)

    scene = document["scenes"][document.get("scene", 0)]
    for root in scene["nodes"]:
        place(root, np.zeros(3), np.ones(3))
    return np.concatenate(found) if found else np.zeros((0, 3, 3))


def mesh_solid(triangles: np.ndarray, most: int) -> np.ndarray:
    """The ``(y, z, x)`` solid blocks whose surface ``triangles`` are, refused past ``most``."""
    if not triangles.size:
        raise BadFileError("a mesh without a triangle")
    low = triangles.reshape(-1, 3).min(axis=0)
    values = np.unique(triangles - low)
    gaps = np.diff(values)
    gaps = gaps[gaps > 1e-5 * values[-1]]  # (float32 corners differ in their last digits)
    size = float(gaps.min()) if gaps.size else 0.0
    if size <= 0:
        raise BadFileError("a mesh without extent: not a mesh of blocks")
    lattice = (triangles - low) / size
    corners = np.round(lattice).astype(np.int64)
    if np.abs(lattice - corners).max() > 1e-3:
        raise BadFileError("the mesh's corners are not on one lattice of blocks: not a mesh of "
                           "blockmaze's blocks")
    width, height, length = (int(v) for v in corners.reshape(-1, 3).max(axis=0))
    if width * height * length > most:
        raise BadFileError(f"a mesh of {width}x{height}x{length} blocks (width x height x length) "
                           f"is more than is read: {most}")
    level = (corners[:, :, 1] == corners[:, :1, 1]).all(axis=1)
    flips = np.zeros((height + 1, length, width), np.uint8)
    _toggle(corners[level][:, :, [0, 2]].astype(np.float64), corners[level][:, 0, 1], flips)
    return np.bitwise_xor.accumulate(flips, axis=0)[:height].astype(bool)


@kernel
def _toggle(triangles, planes, flips):
    """Toggle ``flips[plane, z, x]`` for each column whose off-centre point a level triangle
    (``(x, z)`` corners) covers."""
    for t in range(triangles.shape[0]):
        ax, az = triangles[t, 0, 0], triangles[t, 0, 1]
        bx, bz = triangles[t, 1, 0], triangles[t, 1, 1]
        cx, cz = triangles[t, 2, 0], triangles[t, 2, 1]
        area = (bx - ax) * (cz - az) - (bz - az) * (cx - ax)
        if area == 0:
            continue
        for z in range(int(min(az, bz, cz)), int(max(az, bz, cz))):
            for x in range(int(min(ax, bx, cx)), int(max(ax, bx, cx))):
                px, pz = x + _OFF[0], z + _OFF[1]
                d0 = (bx - ax) * (pz - az) - (bz - az) * (px - ax)
                d1 = (cx - bx) * (pz - bz) - (cz - bz) * (px - bx)
                d2 = (ax - cx) * (pz - cz) - (az - cz) * (px - cx)
                if (d0 > 0 and d1 > 0 and d2 > 0) or (d0 < 0 and d1 < 0 and d2 < 0):
                    flips[planes[t], z, x] ^= 1


__all__ = ["mesh_solid", "mesh_triangles"]
