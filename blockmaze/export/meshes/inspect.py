"""What a mesh file holds, for ``blockmaze info``: triangles, vertices, chunks, size in blocks.

Reads our glTF (.glb, .gltf) from its JSON alone (accessor counts, the scene's extras), and counts
the triangles and vertices of .obj, .ply, .stl and .3mf files from their headers or lines.

Example
-------
>>> import io, numpy as np, blockmaze as bm
>>> out = io.BytesIO()
>>> bm.write(np.ones((2, 3, 130), np.uint8), out, format="glb")
>>> summarize(out.getvalue(), ".glb")[:3]
['triangles: 32', 'vertices: 52', 'chunks: 2 (128 blocks a side), 1 material: wall']
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


def _gltf_document(file) -> dict:
    head = file.read(20)
    if head[:4] == b"glTF":  # only the JSON chunk is read, not the binary one
        return json.loads(file.read(struct.unpack_from("<I", head, 12)[0]))
    return json.loads(head + file.read())


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
    """Lines describing a mesh file (a path, or its bytes with its ``suffix``); a big file is
    read only as far as needed (a .glb's JSON, an .stl's count, a .ply's header)."""
    if isinstance(source, (str, Path)):
        suffix = suffix or Path(source).suffix
    suffix = (suffix or "").lower()
    if suffix not in SUFFIXES:
        raise BlockmazeError(f"not a mesh file suffix: {suffix!r}; mesh files are {', '.join(SUFFIXES)}")
    file = open(source, "rb") if isinstance(source, (str, Path)) else BytesIO(bytes(source))
    try:
        with file:
            return _summary(file, suffix)
    except (ValueError, KeyError, IndexError, struct.error, zipfile.BadZipFile, UnicodeDecodeError) as error:
        raise BlockmazeError(f"cannot read this {suffix} file: {error}") from None


def _summary(file, suffix: str) -> list[str]:
    if suffix in (".glb", ".gltf"):
        return _gltf_lines(_gltf_document(file))
    if suffix == ".stl":
        (count,) = struct.unpack_from("<I", file.read(84), 80)
        return [f"triangles: {count}", f"vertices: {3 * count} (STL repeats corners)"]
    if suffix == ".ply":
        head = file.read(1 << 16)
        header = head[:head.index(b"end_header")].decode("ascii")
        counts = dict(re.findall(r"element (\w+) (\d+)", header))
        return [f"triangles: {counts.get('face', 0)}", f"vertices: {counts.get('vertex', 0)}"]
    if suffix == ".obj":
        counts = {b"f": 0, b"v": 0, b"o": 0}
        for line in file:
            tag = line.split(b" ", 1)[0]
            if tag in counts:
                counts[tag] += 1
        return [f"triangles: {counts[b'f']}", f"vertices: {counts[b'v']}", f"groups: {counts[b'o']}"]
    with zipfile.ZipFile(file) as archive:
        model = archive.read("3D/3dmodel.model").decode("utf-8")
    return [f"triangles: {model.count('<triangle ')}", f"vertices: {model.count('<vertex ')}",
            f"objects: {model.count('<object ')}"]
