"""What a mesh file holds, for ``blockmaze info``: triangles, vertices, chunks, size in blocks.

Reads our glTF (.glb, .gltf) from its JSON alone (accessor counts, the scene's extras), and counts
the triangles and vertices of .obj, .ply, .stl and .3mf files from their headers or lines.

Example
-------
>>> import io, numpy as np, blockmaze as bm
>>> out = io.BytesIO()
>>> bm.write(np.ones((2, 3, 130), np.uint8), out, format="glb")
>>> summarize(out.getvalue(), ".glb")[:3]
['triangles: 52', 'vertices: 80', 'chunks: 3 (64 blocks a side), 1 material: wall']
"""

from __future__ import annotations

import json
import re
import struct
import zipfile
from io import BytesIO
from pathlib import Path

from ...errors import BlockmazeError

__all__ = ["summarize", "SUFFIXES"]

SUFFIXES = (".glb", ".gltf", ".obj", ".ply", ".stl", ".3mf")


def _gltf_document(data: bytes) -> dict:
    if data[:4] == b"glTF":
        length = struct.unpack_from("<I", data, 12)[0]
        return json.loads(data[20:20 + length])
    return json.loads(data)


def _gltf_lines(document: dict) -> list[str]:
    accessors = document.get("accessors", [])
    triangles = vertices = 0
    chunks, materials = set(), set()
    collision = 0
    for mesh in document.get("meshes", []):
        counts = [accessors[p["indices"]]["count"] // 3 for p in mesh["primitives"]]
        if mesh["name"].endswith("-colonly"):
            collision += sum(counts)
            continue
        triangles += sum(counts)
        vertices += sum(accessors[p["attributes"]["POSITION"]]["count"] for p in mesh["primitives"])
        name, _, chunk = mesh["name"].partition("_")
        chunks.add(chunk)
        materials.add(name)
    extras = (document.get("scenes") or [{}])[0].get("extras", {})
    used = document.get("extensionsUsed", [])
    side = extras.get("chunk")
    lines = [f"triangles: {triangles}", f"vertices: {vertices}",
             f"chunks: {len(chunks)}" + (f" ({side} blocks a side)" if side else " (no chunking)")
             + f", {len(materials)} material{'s' * (len(materials) != 1)}: {', '.join(sorted(materials))}"]
    if "size_blocks" in extras:
        x, y, z = extras["size_blocks"]
        lines.append(f"size: {x}x{y}x{z} blocks (width x height x length), "
                     f"block {extras.get('block_size_m', 1):g} m")
    lines.append("encoding: " + (", ".join(used) if used else "plain floats, uncompressed"))
    if collision:
        lines.append(f"collision: {collision} triangles")
    return lines


def summarize(source: str | Path | bytes, suffix: str | None = None) -> list[str]:
    """Lines describing a mesh file (a path, or its bytes with its ``suffix``)."""
    if isinstance(source, (str, Path)):
        suffix = suffix or Path(source).suffix
        data = Path(source).read_bytes()
    else:
        data = bytes(source)
    suffix = (suffix or "").lower()
    if suffix not in SUFFIXES:
        raise BlockmazeError(f"not a mesh file suffix: {suffix!r}; mesh files are {', '.join(SUFFIXES)}")
    try:
        if suffix in (".glb", ".gltf"):
            return _gltf_lines(_gltf_document(data))
        if suffix == ".stl":
            (count,) = struct.unpack_from("<I", data, 80)
            return [f"triangles: {count}", f"vertices: {3 * count} (STL repeats corners)"]
        if suffix == ".ply":
            header = data[:data.index(b"end_header")].decode("ascii")
            counts = dict(re.findall(r"element (\w+) (\d+)", header))
            return [f"triangles: {counts.get('face', 0)}", f"vertices: {counts.get('vertex', 0)}"]
        if suffix == ".obj":
            text = data.decode("ascii")
            groups = len(re.findall(r"^o ", text, re.M))
            return [f"triangles: {len(re.findall(r'^f ', text, re.M))}",
                    f"vertices: {len(re.findall(r'^v ', text, re.M))}", f"groups: {groups}"]
        with zipfile.ZipFile(BytesIO(data)) as archive:
            model = archive.read("3D/3dmodel.model").decode("utf-8")
        return [f"triangles: {model.count('<triangle ')}", f"vertices: {model.count('<vertex ')}",
                f"objects: {model.count('<object ')}"]
    except (ValueError, KeyError, IndexError, struct.error, zipfile.BadZipFile, UnicodeDecodeError) as error:
        raise BlockmazeError(f"cannot read this {suffix} file: {error}") from None
