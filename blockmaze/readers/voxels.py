"""``info`` for the voxel formats: MagicaVoxel ``.vox``, Luanti ``.mts`` and Bedrock ``.mcpack``.

Each reads in pieces, checks every declared length against what is left, and never inflates more
than the info limit.

Example
-------
>>> import io
>>> import numpy as np
>>> from blockmaze.export import write
>>> out = io.BytesIO()
>>> write(np.ones((2, 3, 4), np.uint8), out, format="mts")
>>> read_mts(io.BytesIO(out.getvalue())).lines()[:2]
['format: Luanti schematic (.mts) version 4', 'size: 4 x 2 x 3 nodes (width x height x length)']
"""

from __future__ import annotations

import io
import json
import struct
import zipfile
import zlib
from typing import BinaryIO

import numpy as np

from ..errors import BadFileError
from ..materials import Material
from .base import FileInfo, file_size, load_json, open_zip, zip_member
from .timebound import check_time


def _exact(file: BinaryIO, count: int, what: str) -> bytes:
    data = file.read(count)
    if len(data) != count:
        raise BadFileError(f"the file ends inside {what}")
    return data


def _colour_name(index: int) -> str:
    return Material(index).name.lower() if index in Material._value2member_map_ else f"colour {index}"


def read_vox(file: BinaryIO) -> FileInfo:
    """A MagicaVoxel file: models, their placement by the scene's transforms, voxels by colour."""
    version, sizes, models, counts, places = _vox_scene(file)
    bounds = [(voxels[:, :3].min(axis=0), voxels[:, :3].max(axis=0) + 1) if len(voxels) else None
              for voxels in models]
    low, high = _extent(sizes, bounds, places)
    extent = tuple(int(h - lo) for h, lo in zip(high, low, strict=True))  # x, y (north), z (up)
    named = {_colour_name(i): int(c) for i, c in enumerate(counts) if c}
    return FileInfo(f"MagicaVoxel (.vox) version {version}", (extent[0], extent[2], extent[1]), None, named,
                    {"models": len(sizes), "voxels": int(counts.sum())}, unit="voxels")


def vox_volume(file: BinaryIO, most: int) -> np.ndarray:
    """The ``(y, z, x)`` materials (colour index = material value, AIR where no voxel is) of a
    MagicaVoxel file's scene, refused past ``most`` blocks (the inverse of the writer's axes).

    >>> from blockmaze.export import write
    >>> out = io.BytesIO()
    >>> write(np.array([[[1, 0, 2]]], np.uint8), out, format="vox")
    >>> vox_volume(io.BytesIO(out.getvalue()), 10).tolist()
    [[[1, 0, 2]]]
    """
    _, sizes, models, _, places = _vox_scene(file, keep=True)
    corners = [places.get(k, np.array(size) // 2) - np.array(size) // 2 for k, size in enumerate(sizes)]
    points = [corner + voxels[:, :3].astype(np.int64) for corner, voxels in zip(corners, models, strict=True) if len(voxels)]
    if not points:
        raise BadFileError("a .vox without a voxel")
    low = np.min([p.min(axis=0) for p in points], axis=0)
    extent = np.max([p.max(axis=0) for p in points], axis=0) + 1 - low
    if int(np.prod(extent)) > most:
        raise BadFileError(f"a scene of {extent[0]}x{extent[2]}x{extent[1]} voxels (width x height x "
                           f"length) is more than is read: {most}")
    volume = np.zeros((extent[2], extent[1], extent[0]), np.uint8)
    for where, voxels in zip(points, (v for v in models if len(v)), strict=True):
        x, y, z = (where - low).T
        volume[z, extent[1] - 1 - y, x] = voxels[:, 3]
    return volume


def _vox_scene(file: BinaryIO, keep: bool = False):
    """A .vox's version, its models' sizes and voxels (x, y, z, colour rows; without ``keep``
    only two, the corners of their bounds), the voxels' count by colour and each placed model's
    centre."""
    head = _exact(file, 8, "the header")
    if head[:4] != b"VOX ":
        raise BadFileError("not a MagicaVoxel file (no 'VOX ' at its start)")
    (version,) = struct.unpack("<i", head[4:])
    main = _exact(file, 12, "the MAIN chunk")
    if main[:4] != b"MAIN":
        raise BadFileError("a .vox without its MAIN chunk")
    content, children = struct.unpack("<ii", main[4:])
    total = file_size(file)
    if content < 0 or children < 0 or (total is not None and 20 + content + children > total):
        raise BadFileError("the MAIN chunk claims more bytes than the file holds")
    file.read(content)
    sizes, models, counts, translations, shapes = [], [], np.zeros(256, np.int64), {}, {}
    left = children
    while left > 0:
        check_time()
        name, size, nested = struct.unpack("<4sii", _exact(file, 12, "a chunk header"))
        if size < 0 or nested < 0 or 12 + size + nested > left:
            raise BadFileError(f"chunk {name!r} claims more bytes than MAIN holds")
        data = _exact(file, size, f"chunk {name!r}")
        left -= 12 + size
        if name == b"SIZE":
            sizes.append(struct.unpack_from("<3i", data))
        elif name == b"XYZI":
            (n,) = struct.unpack_from("<i", data)
            if n < 0 or 4 + 4 * n > len(data):
                raise BadFileError("an XYZI chunk claims more voxels than it holds")
            voxels = np.frombuffer(data, np.uint8, 4 * n, 4).reshape(-1, 4)
            counts += np.bincount(voxels[:, 3], minlength=256)
            if not keep and n:  # (its two corners: the bounds, without holding every voxel)
                voxels = np.vstack([voxels.min(axis=0), voxels.max(axis=0)])
            models.append(voxels)
        elif name == b"nTRN":
            node, child, frame = _transform(data)
            translations[node] = (child, frame)
        elif name == b"nSHP":
            node = struct.unpack_from("<i", data)[0]
            shapes[node] = _shape_model(data)
    if len(models) != len(sizes):
        raise BadFileError("each model needs a SIZE and an XYZI chunk")
    if not sizes:
        raise BadFileError("a .vox without a model")
    return version, sizes, models, counts, _placements(sizes, translations, shapes)


def _dict(data: bytes, at: int) -> tuple[dict[str, str], int]:
    (n,), at = struct.unpack_from("<i", data, at), at + 4
    out = {}
    for _ in range(n):
        pair = []
        for _ in range(2):
            (length,) = struct.unpack_from("<i", data, at)
            if length < 0 or at + 4 + length > len(data):
                raise BadFileError("a scene dictionary claims more bytes than its chunk holds")
            pair.append(data[at + 4:at + 4 + length].decode("ascii", "replace"))
            at += 4 + length
        out[pair[0]] = pair[1]
    return out, at


def _transform(data: bytes) -> tuple[int, int, tuple[int, int, int]]:
    (node,) = struct.unpack_from("<i", data)
    _, at = _dict(data, 4)
    child, _, _, frames = struct.unpack_from("<4i", data, at)
    frame, _ = _dict(data, at + 16) if frames > 0 else ({}, 0)
    try:
        moved = tuple(int(v) for v in frame.get("_t", "0 0 0").split())
    except ValueError:
        raise BadFileError("a transform's translation is not three whole numbers") from None
    if len(moved) != 3:
        raise BadFileError("a transform's translation is not three whole numbers")
    return node, child, moved


def _shape_model(data: bytes) -> int:
    _, at = _dict(data, 4)
    count, model = struct.unpack_from("<2i", data, at)
    return model if count > 0 else -1


def _placements(sizes, translations, shapes) -> dict[int, np.ndarray]:
    """Each placed model's centre: the sum of the translations of the transforms above it."""
    parent = {child: node for node, (child, _) in translations.items()}
    moved: dict[int, tuple[int, ...]] = {}  # a transform's offset: its own and those above it
    placed = {}
    for node, model in shapes.items():
        check_time()
        chain, seen, up = [], set(), parent.get(node)
        while up is not None and up not in moved:  # each transform walked once: linear
            if up in seen:
                raise BadFileError("the scene's transforms form a cycle")
            seen.add(up)
            chain.append(up)
            up = parent.get(up)
        total = moved[up] if up is not None else (0, 0, 0)
        for step in reversed(chain):
            total = tuple(a + b for a, b in zip(total, translations[step][1], strict=True))
            moved[step] = total
        offset = moved[parent[node]] if node in parent else (0, 0, 0)
        if 0 <= model < len(sizes):
            placed[model] = np.array(offset, np.int64)
    return placed


def _extent(sizes, bounds, placed):
    """The bounds of the scene's voxels: each model centred at its placement (a model without a
    transform sits at the origin)."""
    lows, highs = [], []
    for k, (size, box) in enumerate(zip(sizes, bounds, strict=True)):
        if box is not None:
            corner = placed.get(k, np.array(size) // 2) - np.array(size) // 2
            lows.append(corner + box[0])
            highs.append(corner + box[1])
    if not lows:
        return np.zeros(3, np.int64), np.zeros(3, np.int64)
    return np.min(lows, axis=0), np.max(highs, axis=0)


def read_mts(file: BinaryIO) -> FileInfo:
    """A Luanti schematic: size, node names and how many nodes each."""
    head = _exact(file, 12, "the header")
    if head[:4] != b"MTSM":
        raise BadFileError("not a Luanti schematic (no 'MTSM' at its start)")
    version, width, height, length = struct.unpack(">H3h", head[4:])
    if min(width, height, length) < 1:
        raise BadFileError(f"a schematic of size {width}x{height}x{length}")
    _exact(file, height, "the layer probabilities")
    (count,) = struct.unpack(">H", _exact(file, 2, "the name table"))
    names = []
    for _ in range(count):
        (size,) = struct.unpack(">H", _exact(file, 2, "the name table"))
        names.append(_exact(file, size, "a node name").decode("utf-8", "replace"))
    from .nbtread import inflate_limit

    nodes = width * height * length
    if 4 * nodes > inflate_limit():
        raise BadFileError(f"{nodes} nodes are more than info inflates (set BLOCKMAZE_INFO_LIMIT to raise it)")
    inflater, ids = zlib.decompressobj(), bytearray()
    while len(ids) < 2 * nodes:
        check_time()
        piece = file.read(1 << 16)
        if not piece:
            break
        try:
            ids += inflater.decompress(piece, 2 * nodes - len(ids))
        except zlib.error as error:
            raise BadFileError(f"the node data is not a zlib stream: {error}") from None
    if len(ids) < 2 * nodes:
        raise BadFileError("the node data ends early")
    found = np.bincount(np.frombuffer(bytes(ids), ">u2"), minlength=len(names))
    if len(found) > len(names):
        raise BadFileError("a node refers to a name the table lacks")
    counts = {name: int(n) for name, n in zip(names, found, strict=True) if n}
    return FileInfo(f"Luanti schematic (.mts) version {version}", (width, height, length), None, counts,
                    unit="nodes")


def read_mcpack(file: BinaryIO) -> FileInfo:
    """A Bedrock behaviour pack: its manifest and the structure it holds."""
    from .nbtread import inflate_limit
    from .minecraft import read_nbt_info

    try:
        archive = open_zip(file)
        names = archive.namelist()
        if "manifest.json" not in names:
            raise BadFileError("a zip, but not a Bedrock pack: no manifest.json at its top")
        with zip_member(archive, "manifest.json", 1 << 20) as member:
            document = load_json(member.read(1 << 20), "manifest.json")
        structures = [m for m in archive.infolist() if m.filename.startswith("structures/")
                      and m.filename.endswith(".mcstructure")]
        if not structures:
            raise BadFileError("a Bedrock pack without a structure")
        with zip_member(archive, structures[0]) as member:
            data = member.read(inflate_limit() + 1)
        functions = sorted(n for n in names if n.startswith("functions/") and n.endswith(".mcfunction"))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, zlib.error, OSError,
            NotImplementedError, RuntimeError, KeyError) as error:
        raise BadFileError(f"not a readable zip: {error}") from None
    inner = read_nbt_info(lambda: io.BytesIO(data), ".mcstructure")
    header = document.get("header", {}) if isinstance(document, dict) else {}
    header = header if isinstance(header, dict) else {}
    path = structures[0].filename[len("structures/"):-len(".mcstructure")]
    details = {"pack": header.get("name"), "uuid": header.get("uuid"),
               "min_engine_version": json.dumps(header.get("min_engine_version")),
               "structure": path.replace("/", ":", 1),
               "functions": ", ".join("/function " + n[len("functions/"):-len(".mcfunction")] for n in functions)}
    return FileInfo("Bedrock behaviour pack (.mcpack)", inner.size, None, inner.counts, details)
