"""``info`` for tile maps: Tiled (.tmx/.tmj), ASCII (.txt), blockmaze JSON (.tilemap.json),
tcod (.npz) and REXPaint (.xp) — size in tiles and how many tiles of each kind (and a Tiled map's
terrain sets, an LDtk project's auto-layer tiles). No numba here:
``info`` on a tile map loads none.

Example
-------
>>> import io
>>> read_ascii(io.BytesIO(b"; blockmaze ascii map 3x2\\n; legend: ...\\n###\\n#.#\\n")).details["size"]
'3 x 2 tiles (width x height)'
"""

from __future__ import annotations

import base64
import binascii
import io
import re
import zipfile
import zlib
from collections import Counter
from typing import BinaryIO

import numpy as np

from ..errors import BadFileError
from ..materials import Material
from .base import (
    FileInfo,
    load_json,
    need,
    open_zip,
    read_whole,
    text_limit,
    zip_member,
)
from .timebound import check_time

FIRST_GID = 1
_XP_CELL = np.dtype([("glyph", "<i4"), ("colours", "u1", 6)])  # 10 bytes a cell


def _material_name(value: int) -> str:
    try:
        return Material(value).name.lower()
    except ValueError:
        return f"#{value}"


def _tile_info(name: str, width: int, height: int, counts: dict[str, int]) -> FileInfo:
    total = sum(counts.values())
    if total != width * height:
        raise BadFileError(f"{total} tiles for a {width}x{height} map")
    return FileInfo(name, None, None, counts, {"size": f"{width} x {height} tiles (width x height)"},
                    unit="tiles")


def _gid_counts(gids: np.ndarray, width: int, height: int) -> dict[str, int]:
    if gids.size != width * height:
        raise BadFileError(f"{gids.size} tiles for a {width}x{height} map")
    counts = np.zeros(1 << 16, np.int64)
    for start in range(0, gids.size, 1 << 20):  # in slices: no int64 copy of a whole big map
        check_time()
        piece = gids[start:start + (1 << 20)]
        if piece.min() < FIRST_GID or piece.max() >= 1 << 16:
            raise BadFileError(f"a GID outside {FIRST_GID}..65535 (0 is no tile; blockmaze writes a tile everywhere)")
        counts += np.bincount(piece.astype(np.int64), minlength=1 << 16)
    return {_material_name(g - FIRST_GID): int(c) for g, c in enumerate(counts.tolist()) if c}


def _decode_data(text: bytes | str, encoding: str | None, compression: str | None, tiles: int) -> np.ndarray:
    """The GIDs of a Tiled layer's data: CSV, or base64 of little-endian uint32 (maybe zlib or
    gzip compressed); ``tiles`` is how many the map's size says, checked before inflating."""
    from .nbtread import NbtError, Source

    if isinstance(text, str):
        text = text.encode("ascii", "replace")
    if tiles * 4 > 4 * text_limit():
        raise BadFileError(f"a map of {tiles} tiles is more than info reads (set BLOCKMAZE_INFO_LIMIT to raise it)")
    try:
        if encoding in (None, "csv"):
            text = text.replace(b"\n", b" ").strip()
            return np.fromstring(text, dtype=np.int64, sep=",") if text else np.zeros(0, np.int64)
        if encoding != "base64":
            raise BadFileError(f"tile data encoding {encoding!r} is not csv or base64")
        raw = base64.b64decode(text, validate=False)
        if compression == "zlib":
            stream = zlib.decompressobj()
            raw = stream.decompress(raw, tiles * 4 + 1)
        elif compression == "gzip":
            source = Source(io.BytesIO(raw), tiles * 4 + 1)
            raw = source.take(min(tiles * 4, source.left_at_most()))
        elif compression:
            raise BadFileError(f"tile data compression {compression!r} is not zlib or gzip")
        if len(raw) != tiles * 4:
            raise BadFileError(f"base64 tile data holds {len(raw)} bytes; {tiles} tiles need {tiles * 4}")
        return np.frombuffer(raw, "<u4")
    except (ValueError, zlib.error, binascii.Error, NbtError) as error:
        raise BadFileError(f"tile data cannot be decoded: {error}") from None


_ATTR = re.compile(rb'(?<![a-z])([a-z]++)="([^"]*+)"')  # possessive, from a word's start: linear


def _element(text: bytes, tag: bytes, start: int) -> tuple[bytes, int] | None:
    """The attribute text of the first ``<tag`` element at or after ``start`` and where its start
    tag ends, found without backtracking (each byte looked at a bounded number of times)."""
    at = start
    while (at := text.find(b"<" + tag, at)) >= 0:
        after = text[at + 1 + len(tag):at + 2 + len(tag)]
        if after in (b">", b"/") or after.isspace():
            end = text.find(b">", at)
            return (text[at + 1 + len(tag):end], end + 1) if end >= 0 else None
        at += 1 + len(tag)
    return None


def read_tmx(file: BinaryIO) -> FileInfo:
    """A Tiled .tmx map: the first tile layer's data counted by tile kind."""
    text = read_whole(file, "a TMX map")
    width, height, gids = tmx_gids(text)
    info = _tile_info("Tiled map (.tmx)", width, height, _gid_counts(gids, width, height))
    sets, at = [], 0
    while (found := _element(text, b"wangset", at)) is not None:
        attrs = {k.decode(): v.decode("utf-8", "replace") for k, v in _ATTR.findall(found[0])}
        sets.append((attrs.get("name", "?"), attrs.get("type", "?")))
        at = found[1]
    return _with_terrain(info, sets)


def tmx_gids(text: bytes) -> tuple[int, int, np.ndarray]:
    """A .tmx map's width, height and its first tile layer's GIDs, row by row."""
    found = _element(text, b"map", 0)
    if not found:
        raise BadFileError("no <map> element: not a TMX map")
    attrs = dict(_ATTR.findall(found[0]))
    data = _element(text, b"data", found[1])
    close = text.find(b"<", data[1]) if data else -1
    if data is None or text[close:close + 7] != b"</data>":
        raise BadFileError("no <data> in a tile layer")
    try:
        width, height = int(attrs[b"width"]), int(attrs[b"height"])
    except (KeyError, ValueError):
        raise BadFileError("the <map> element needs whole-number width and height") from None
    how = {k.decode(): v.decode("utf-8", "replace") for k, v in _ATTR.findall(data[0])}
    return width, height, _decode_data(text[data[1]:close], how.get("encoding"), how.get("compression"),
                                       width * height)


def read_tmj(file: BinaryIO) -> FileInfo:
    """A Tiled .tmj map."""
    document = load_json(read_whole(file, "a TMJ map"), "a TMJ map")
    return tmj_summary(document)


def tmj_summary(document: dict) -> FileInfo:
    width, height, gids = tmj_gids(document)
    info = _tile_info("Tiled map (.tmj)", width, height, _gid_counts(gids, width, height))
    sets = [(str(w.get("name", "?")), str(w.get("type", "?")))
            for t in _list(document.get("tilesets")) if isinstance(t, dict)
            for w in _list(t.get("wangsets")) if isinstance(w, dict)]
    return _with_terrain(info, sets)


def tmj_gids(document: dict) -> tuple[int, int, np.ndarray]:
    """A .tmj map's width, height and its first tile layer's GIDs, row by row."""
    width, height = need(document, "width", int), need(document, "height", int)
    layers = [layer for layer in need(document, "layers", list)
              if isinstance(layer, dict) and layer.get("type") == "tilelayer"]
    if not layers:
        raise BadFileError("a Tiled map without a tile layer")
    data = need(layers[0], "data", (list, str), "layers[0].")
    if isinstance(data, list):
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in data):
            raise BadFileError("layers[0].data must hold whole-number GIDs")
        return width, height, np.array(data, np.int64)
    return width, height, _decode_data(data, layers[0].get("encoding"), layers[0].get("compression"),
                                       width * height)


def _list(value) -> list:
    """``value`` if it is a list, else an empty one (a hostile file's odd field reads as none)."""
    return value if isinstance(value, list) else []


def _with_terrain(info: FileInfo, sets: list[tuple[str, str]]) -> FileInfo:
    """``info`` saying the map's terrain (Wang) sets, by name and type, if it has any."""
    if sets:
        info.details["terrain sets"] = ", ".join(f"{name} ({kind})" for name, kind in sets)
    return info


def read_ascii(file: BinaryIO) -> FileInfo:
    """A blockmaze ASCII map: its header (``; blockmaze ascii map ...`` and a legend, comment
    lines starting with the first line's first character), then rows of glyphs. Any other text
    file is refused: without the header nothing says it is a map."""
    text = read_whole(file, "a text map")
    try:
        lines = text.decode("utf-8").split("\n")
    except UnicodeDecodeError as error:
        raise BadFileError(f"a text map that is not UTF-8: {error}") from None
    comment = lines[0][:1]
    if not lines[0][1:].startswith(" blockmaze ascii map") or \
            not any(line.startswith(f"{comment} legend:") for line in lines[1:8]):
        raise BadFileError("not a blockmaze text map: it starts with neither the header "
                           "'; blockmaze ascii map ...' nor its legend (write maps with the legend "
                           "for info to read them)")
    rows = [line for line in lines if line and not line.startswith(comment)]
    if not rows or any(len(row) != len(rows[0]) for row in rows):
        raise BadFileError("a text map's rows must all be the same length (and there must be one)")
    counts = Counter("".join(rows))
    return _tile_info("ASCII tile map (.txt)", len(rows[0]), len(rows), {f"'{k}'": v for k, v in counts.items()})


def tilejson_summary(document: dict) -> FileInfo:
    width, height = need(document, "width", int), need(document, "height", int)
    grid = need(document, "grid", list)
    if len(grid) != height or not all(isinstance(row, str) and len(row) == width for row in grid):
        raise BadFileError(f"grid must be {height} strings of {width} glyphs")
    counts = Counter("".join(grid))
    return _tile_info("blockmaze tile map (.tilemap.json)", width, height,
                      {f"'{k}'": v for k, v in counts.items()})


def ldtk_summary(document: dict) -> FileInfo:
    """An LDtk project: its first level's IntGrid layer, size and values, and its entities."""
    layers, width, height, values = ldtk_grid(document)
    entities = sum(len(layer.get("entityInstances") or []) for layer in layers if isinstance(layer, dict))
    counts = Counter(values)
    info = _tile_info("LDtk project (.ldtk)", width, height, {f"value {k}": v for k, v in sorted(counts.items())})
    info.details["entities"] = entities
    auto = [layer for layer in layers if isinstance(layer, dict) and layer.get("__type") == "AutoLayer"]
    if auto:
        info.details["auto-layer tiles"] = ", ".join(
            f"{len(_list(layer.get('autoLayerTiles')))} ({layer.get('__identifier', '?')})" for layer in auto)
    return info


def ldtk_grid(document: dict) -> tuple[list, int, int, list]:
    """An LDtk project's first level: its layers, and its IntGrid layer's width, height and
    values (material + 1), row by row."""
    levels = need(document, "levels", list)
    if not levels or not isinstance(levels[0], dict):
        raise BadFileError("an LDtk project needs at least one level")
    layers = need(levels[0], "layerInstances", list)
    grid = next((layer for layer in layers if isinstance(layer, dict) and layer.get("__type") == "IntGrid"), None)
    if grid is None:
        raise BadFileError("the level has no IntGrid layer")
    width, height = need(grid, "__cWid", int), need(grid, "__cHei", int)
    values = need(grid, "intGridCsv", list)
    if len(values) != width * height:
        raise BadFileError(f"intGridCsv holds {len(values)} values for {width}x{height} cells")
    return layers, width, height, values


def read_npz(file: BinaryIO) -> FileInfo:
    """A tcod .npz: the ``material`` array's shape and values, read in pieces."""
    height, width, counts, _ = npz_materials(file)
    return _tile_info("numpy arrays for tcod (.npz)", width, height,
                      {_material_name(v): int(c) for v, c in enumerate(counts) if c})


def npz_materials(file: BinaryIO, keep: bool = False) -> tuple[int, int, np.ndarray, np.ndarray | None]:
    """A tcod .npz's height and width, the count of each material value in its ``material``
    array and, with ``keep``, that array (rows north to south), read in pieces."""
    kept: list[np.ndarray] = []
    try:
        archive = open_zip(file)
        with zip_member(archive, "material.npy") as member:
            version = np.lib.format.read_magic(member)
            if version not in ((1, 0), (2, 0), (3, 0)):
                raise BadFileError(f"material.npy has .npy version {version}")
            reader = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
            shape, fortran, dtype = reader(member)
            if dtype != np.uint8 or len(shape) != 2:
                raise BadFileError("material.npy must be a 2-D uint8 array")
            counts, left = np.zeros(256, np.int64), shape[0] * shape[1]
            if left > archive.getinfo("material.npy").file_size:
                raise BadFileError(f"material.npy claims {shape[0]}x{shape[1]} values, more "
                                   "than it holds")
            while left:
                check_time()
                piece = member.read(min(left, 1 << 20))
                if not piece:
                    raise BadFileError("material.npy is truncated")
                counts += np.bincount(np.frombuffer(piece, np.uint8), minlength=256)
                left -= len(piece)
                if keep:
                    kept.append(np.frombuffer(piece, np.uint8))
    except BadFileError:
        raise
    except KeyError:
        raise BadFileError("a zip without material.npy: not a blockmaze .npz") from None
    except (zipfile.BadZipFile, EOFError, zlib.error, OSError, NotImplementedError, RuntimeError,
            ValueError) as error:
        raise BadFileError(f"not a readable .npz: {error}") from None
    height, width = shape if not fortran else shape[::-1]
    if not keep:
        return height, width, counts, None
    values = np.concatenate(kept) if kept else np.zeros(0, np.uint8)
    return height, width, counts, values.reshape(height, width)  # (a Fortran array is [x, y])


def read_xp(file: BinaryIO) -> FileInfo:
    """A REXPaint .xp (gzip): header and the first layer's glyphs, inflated in pieces."""
    from .nbtread import NbtError, Source

    source = Source(file)
    if not source.gz:
        raise BadFileError("not gzipped, as every .xp is")
    try:
        version, layers, width, height = np.frombuffer(source.take(16), "<i4").tolist()
        if layers < 1 or width < 1 or height < 1:
            raise BadFileError(f"a REXPaint image of {layers} layers of {width}x{height} cells")
        if width * height * 10 > source.left_at_most():
            raise BadFileError(f"a REXPaint layer of {width}x{height} cells is more than info reads "
                               "(set BLOCKMAZE_INFO_LIMIT to raise it)")
        glyphs: Counter[int] = Counter()
        carry = b""
        for piece in source.pieces(width * height * 10):
            check_time()
            piece = carry + bytes(piece)
            cut = len(piece) - len(piece) % 10
            carry = piece[cut:]
            values, counts = np.unique(np.frombuffer(piece[:cut], _XP_CELL)["glyph"], return_counts=True)
            glyphs.update(dict(zip(values.tolist(), counts.tolist(), strict=True)))
    except NbtError as error:
        raise BadFileError(str(error).replace("NBT", "REXPaint data")) from None
    names = {v: (f"'{chr(v)}'" if 32 < v < 127 else f"glyph {v}") for v in glyphs}
    info = _tile_info("REXPaint image (.xp)", width, height, {names[v]: c for v, c in glyphs.items()})
    info.details["layers"] = layers
    return info


__all__ = ["ldtk_grid", "npz_materials", "read_ascii", "read_npz", "read_tmj", "read_tmx", "read_xp",
           "tilejson_summary", "tmj_gids", "tmj_summary", "tmx_gids"]
