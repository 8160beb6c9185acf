"""``info`` for meshes: glTF (.glb/.gltf), OBJ, PLY, STL and 3MF — vertices, triangles and the
extent, read in pieces (embedded glTF buffers are passed over, never decoded).

Example
-------
>>> import io, blockmaze as bm
>>> out = io.BytesIO()
>>> bm.write(bm.extrude(bm.to_blocks(bm.generate((2, 3), rng=1))), out, format="stl")
>>> _ = out.seek(0); read_stl(out).details["triangles"] > 0
True
"""

from __future__ import annotations

import re
import struct
import zipfile
import zlib
from typing import BinaryIO

import numpy as np

from ..errors import BadFileError
from ..support.wording import counted
from .base import FileInfo, file_size, load_json, need, open_zip, text_limit, zip_member
from .timebound import check_time

PIECE = 1 << 20


class _Bounds:
    """Running minimum and maximum of xyz points."""

    def __init__(self) -> None:
        self.low = np.full(3, np.inf)
        self.high = np.full(3, -np.inf)

    def add(self, points: np.ndarray) -> None:
        points = np.asarray(points, np.float64).reshape(-1, 3)
        if points.size:
            if not np.isfinite(points).all():
                raise BadFileError("a vertex coordinate is not a finite number")
            self.low = np.minimum(self.low, points.min(axis=0))
            self.high = np.maximum(self.high, points.max(axis=0))

    def extent(self) -> np.ndarray:
        return np.where(self.high >= self.low, self.high - self.low, 0.0)


def _mesh_info(name: str, vertices: int, triangles: int, bounds: _Bounds, block: float | None,
               unit: str, z_up: bool = False) -> FileInfo:
    extent = bounds.extent()
    details = {"vertices": vertices, "triangles": triangles,
               "extent": " x ".join(f"{v:g}" for v in extent) + f" {unit} (x y z)"}
    size = None
    if block:
        w, a, b = (int(round(v / block)) for v in extent)
        size = (w, b, a) if z_up else (w, a, b)
    return FileInfo(name, size, details=details)


# -- glTF -------------------------------------------------------------------------------------

def _listed(document: dict, key: str) -> list:
    """The optional list ``document[key]`` ([] when absent or null), else BadFileError.

    >>> _listed({"scenes": None}, "scenes"), _listed({}, "scenes")
    ([], [])
    >>> _listed({"scenes": 5}, "scenes")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BadFileError: scenes has the wrong type
    """
    value = document.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise BadFileError(f"{key} has the wrong type")
    return value


def _gltf_summary(document: object, name: str) -> FileInfo:
    """Counts from the accessors; size, chunks and encoding from what our writer records (the
    scene's extras, mesh names ``material_x_y_z``, ``extensionsUsed``)."""
    if not isinstance(document, dict):
        raise BadFileError("the glTF JSON is not an object")
    accessors = need(document, "accessors", list)
    vertices = triangles = collision = 0
    bounds = _Bounds()
    chunks, materials = set(), set()
    for mesh in need(document, "meshes", list):
        mesh_triangles = 0
        for primitive in need(mesh, "primitives", list, "meshes[]."):
            attributes = need(primitive, "attributes", dict, "primitives[].")
            position = need(attributes, "POSITION", int, "attributes.")
            index = primitive.get("indices")
            for which in (position, index):
                if which is not None and not (isinstance(which, int) and 0 <= which < len(accessors)):
                    raise BadFileError(f"accessor {which!r} does not exist")
            points = accessors[position]
            count = need(points, "count", int, "accessors[].")
            if primitive.get("mode", 4) == 4:
                mesh_triangles += (need(accessors[index], "count", int, "accessors[].") if index is not None
                                   else count) // 3
            if str(mesh.get("name", "")).endswith("-colonly"):
                continue
            vertices += count
            if "min" in points and "max" in points:
                bounds.add(np.array([need(points, "min", list), need(points, "max", list)], dtype=object)
                           .astype(np.float64))
        if str(mesh.get("name", "")).endswith("-colonly"):
            collision += mesh_triangles
            continue
        triangles += mesh_triangles
        material, _, chunk = str(mesh.get("name", "")).partition("_")
        chunks.add(chunk)
        materials.add(material)
    scenes = _listed(document, "scenes")
    extras = scenes[0].get("extras", {}) if scenes and isinstance(scenes[0], dict) else {}
    extras = extras if isinstance(extras, dict) else {}
    block = extras.get("block_size_m")
    block = float(block) if isinstance(block, (int, float)) and block > 0 else None
    info = _mesh_info(name, vertices, triangles, bounds, block, "m")
    recorded = extras.get("size_blocks")
    if isinstance(recorded, list) and len(recorded) == 3 and all(isinstance(v, int) for v in recorded):
        info = FileInfo(info.format, tuple(recorded), details=info.details)  # chunks hold local positions
        del info.details["extent"]
    side = extras.get("chunk")
    info.details["chunks"] = (f"{len(chunks)}" + (f" ({side} blocks a side)" if side else " (no chunking)")
                              + f", {counted(len(materials), 'material')}: "
                              + ", ".join(sorted(materials)))
    used = _listed(document, "extensionsUsed")
    info.details["encoding"] = ", ".join(map(str, used)) if used else "plain floats, uncompressed"
    if collision:
        info.details["collision"] = f"{collision} triangles"
    return info


def _json_without_data(file: BinaryIO, limit: int) -> bytes:
    """A JSON file's bytes with every ``"data:..."`` string emptied, read in pieces."""
    out, size, inside, carry = [], 0, False, b""
    while True:
        check_time()
        piece = file.read(PIECE)
        text = carry + piece
        carry = b""
        at = 0
        while at < len(text):
            if inside:
                end = text.find(b'"', at)
                if end < 0:
                    at = len(text)
                    break
                inside, at = False, end
            else:
                start = text.find(b'"data:', at)
                if start < 0:
                    keep = len(text) if not piece else max(at, len(text) - 5)
                    out.append(text[at:keep])
                    size += keep - at
                    carry = text[keep:]
                    break
                out.append(text[at:start] + b'"data:')
                size += start - at + 6
                inside, at = True, start + 6
            if size > limit:
                break
        if size > limit:
            raise BadFileError(f"a glTF document larger than {limit} bytes is more than info reads "
                               "(set BLOCKMAZE_INFO_LIMIT to raise it)")
        if not piece:
            return b"".join(out) + carry


def read_gltf(file: BinaryIO) -> FileInfo:
    """A .gltf (JSON) file."""
    return _gltf_summary(load_json(_json_without_data(file, text_limit()), "a glTF file"), "glTF 2.0 (.gltf)")


def read_glb(file: BinaryIO) -> FileInfo:
    """A .glb (binary glTF) file: only its JSON chunk is read."""
    head = file.read(20)
    if len(head) < 20 or head[:4] != b"glTF":
        raise BadFileError("not a binary glTF file (no glTF header)")
    version, _length, chunk, kind = struct.unpack("<4I", head[4:])
    if version != 2 or kind != 0x4E4F534A:
        raise BadFileError(f"a glTF {version} file without a JSON chunk first; glTF 2.0 is read")
    if chunk > text_limit():
        raise BadFileError(f"a glTF JSON chunk of {chunk} bytes is more than info reads "
                           "(set BLOCKMAZE_INFO_LIMIT to raise it)")
    data = file.read(chunk)
    if len(data) < chunk:
        raise BadFileError("the glTF JSON chunk is truncated")
    return _gltf_summary(load_json(data, "a glTF JSON chunk"), "glTF 2.0 binary (.glb)")


# -- OBJ, PLY, STL, 3MF -----------------------------------------------------------------------

# a vertex line's first three words (x y z; a colour or weight after them is not read), or
# nothing when the line has fewer
_OBJ_VERTEX = re.compile(rb"^v[ \t]+([^ \t\n]+[ \t]+[^ \t\n]+[ \t]+[^ \t\n]+)?", re.M)
_OBJ_FACE = re.compile(rb"^f[ \t]+([^\n]*)", re.M)
_BLOCK_SIZE = re.compile(rb"block_size ([0-9.eE+-]+)")


def _lines_in_pieces(file: BinaryIO):
    carry = b""
    while True:
        check_time()
        piece = file.read(PIECE)
        text = carry + piece
        cut = text.rfind(b"\n") + 1 if piece else len(text)
        carry = text[cut:]
        if len(carry) > PIECE:
            raise BadFileError(f"a line longer than {PIECE} bytes")
        yield text[:cut]
        if not piece:
            return


def read_obj(file: BinaryIO) -> FileInfo:
    """A Wavefront OBJ: ``v`` and ``f`` lines counted, vertices bounded."""
    vertices = triangles = 0
    bounds, block = _Bounds(), None
    for text in _lines_in_pieces(file):
        if block is None and (found := _BLOCK_SIZE.search(text[:4096])):
            try:
                block = float(found.group(1))
            except ValueError:
                block = None
        rows = _OBJ_VERTEX.findall(text)
        if rows:
            try:
                if b"" in rows:
                    raise ValueError
                coords = np.array(b" ".join(rows).split(), dtype=np.float64)  # one parse
            except ValueError:
                raise BadFileError("a vertex line of the OBJ does not hold three numbers") from None
            vertices += len(rows)
            bounds.add(coords)
        triangles += sum(max(len(row.split()) - 2, 0) for row in _OBJ_FACE.findall(text))
    if vertices == 0 and triangles == 0:
        raise BadFileError("no vertex or face lines: not an OBJ mesh")
    return _mesh_info("Wavefront OBJ (.obj)", vertices, triangles, bounds, block, "m")


_PLY_TYPES = {b"char": "i1", b"uchar": "u1", b"short": "i2", b"ushort": "u2", b"int": "i4",
              b"uint": "u4", b"float": "f4", b"double": "f8", b"int8": "i1", b"uint8": "u1",
              b"int16": "i2", b"uint16": "u2", b"int32": "i4", b"uint32": "u4",
              b"float32": "f4", b"float64": "f8"}


def read_ply(file: BinaryIO) -> FileInfo:
    """A binary little-endian PLY: header counts, vertex bounds read in pieces."""
    end, counts, dtype, block = ply_header(file.read(1 << 16))
    names = (dtype.names or ())[:3]
    total, bounds = counts[b"vertex"], _Bounds()
    size = file_size(file)
    if size is not None and end + 11 + total * dtype.itemsize > size:
        raise BadFileError(f"the PLY declares {total} vertices; the file is too short for them")
    file.seek(end + 11)
    left = total
    while left:
        check_time()
        take = min(left, PIECE // dtype.itemsize)
        raw = file.read(take * dtype.itemsize)
        if len(raw) < take * dtype.itemsize:
            raise BadFileError("the PLY vertex data is truncated")
        rows = np.frombuffer(raw, dtype)
        bounds.add(np.stack([rows[name] for name in names], axis=1))
        left -= take
    return _mesh_info("PLY, binary (.ply)", total, counts[b"face"], bounds, block, "m", z_up=True)


def ply_header(head: bytes) -> tuple[int, dict[bytes, int], np.dtype, float | None]:
    """A binary PLY's header, from the file's first bytes: where it ends (``end_header``'s
    start), each element's count, the vertex record's dtype (x, y, z first) and the
    block size its comment says (or None)."""
    end = head.find(b"end_header\n")
    if not head.startswith(b"ply\n") or end < 0:
        raise BadFileError("not a PLY file (no 'ply' ... 'end_header' header in its first 64 KiB)")
    lines = head[:end].split(b"\n")
    if b"format binary_little_endian 1.0" not in lines:
        raise BadFileError("a PLY that is not binary_little_endian 1.0, which is what blockmaze writes")
    elements: list[tuple[bytes, int, list[list[bytes]]]] = []  # (name, count, its properties' words)
    block = None
    for line in lines:
        words = line.split()
        if words[:1] == [b"element"] and len(words) == 3 and words[2].isdigit():
            elements.append((words[1], int(words[2]), []))
        elif words[:1] == [b"property"] and elements:
            elements[-1][2].append(words[1:])
        elif (found := _BLOCK_SIZE.search(line)) and block is None:
            try:
                block = float(found.group(1))
            except ValueError:
                pass
    counts = {name: n for name, n, _ in elements}
    if b"vertex" not in counts or b"face" not in counts or elements[0][0] != b"vertex":
        raise BadFileError("a PLY without vertex and face elements, vertex first")
    props = elements[0][2]
    if any(len(p) < 2 or p[0] not in _PLY_TYPES for p in props) or [p[1] for p in props[:3]] != [b"x", b"y", b"z"]:
        raise BadFileError("PLY vertices must start with x, y, z and have fixed-size properties, "
                           "each a type and a name")
    names = [p[1].decode("ascii", "replace") + f"_{i}" for i, p in enumerate(props)]
    dtype = np.dtype([(name, "<" + _PLY_TYPES[p[0]]) for name, p in zip(names, props, strict=True)])
    return end, counts, dtype, block


STL_RECORD = np.dtype([("normal", "<f4", 3), ("v", "<f4", (3, 3)), ("attr", "<u2")])


def read_stl(file: BinaryIO) -> FileInfo:
    """A binary STL: its triangle count checked against its length, vertices bounded."""
    head = file.read(84)
    if len(head) < 84:
        raise BadFileError("too short for a binary STL (84-byte header)")
    (count,) = struct.unpack("<I", head[80:])
    size = file_size(file)
    if size is not None and size != 84 + 50 * count:
        raise BadFileError(f"a binary STL of {count} triangles is {84 + 50 * count} bytes; this one is {size}")
    bounds, left = _Bounds(), count
    while left:
        check_time()
        take = min(left, PIECE // 50)
        raw = file.read(take * 50)
        if len(raw) < take * 50:
            raise BadFileError("the STL is truncated")
        bounds.add(np.frombuffer(raw, STL_RECORD)["v"])
        left -= take
    return _mesh_info("STL, binary (.stl)", 3 * count, count, bounds, None, "mm")


_3MF_VERTEX = re.compile(rb'<vertex x="([^"]*)" y="([^"]*)" z="([^"]*)"')


def read_3mf(file: BinaryIO) -> FileInfo:
    """A 3MF package: vertices and triangles of 3D/3dmodel.model, counted in pieces."""
    try:
        archive = open_zip(file)
        vertices = triangles = objects = 0
        bounds = _Bounds()
        with zip_member(archive, "3D/3dmodel.model") as model:
            for text in _lines_in_pieces(model):
                objects += text.count(b"<object ")
                rows = _3MF_VERTEX.findall(text)
                if rows:
                    try:
                        bounds.add(np.array(rows, dtype=np.float64))
                    except ValueError:
                        raise BadFileError("a 3MF vertex has a coordinate that is not a number") from None
                vertices += len(rows)
                triangles += text.count(b"<triangle ")
    except KeyError:
        raise BadFileError("a zip without 3D/3dmodel.model: not a 3MF package") from None
    except (zipfile.BadZipFile, EOFError, zlib.error, OSError, NotImplementedError, RuntimeError) as error:
        raise BadFileError(f"not a readable 3MF zip: {error}") from None
    info = _mesh_info("3MF (.3mf)", vertices, triangles, bounds, None, "mm")
    info.details["objects"] = objects  # one per material: each can take its own filament
    return info


__all__ = ["read_3mf", "read_glb", "read_gltf", "read_obj", "read_ply", "read_stl"]
