"""``blockmaze info``: what a file blockmaze writes holds — its format, version, size and blocks.

Every reader here checks what it reads (see :mod:`blockmaze.export.minecraft.nbtread`), so a truncated or hostile
file gives one clear error, never a crash or a hang.
"""

from __future__ import annotations

import io
import json
import zipfile
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .kernels import kernel
import numpy as np

from .errors import BlockmazeError
from .export.minecraft.versions import RELEASES
from .export.minecraft.nbtread import GZIP_MAGIC, NbtError, read_nbt, read_nbt_file

MAX_ZIP_MEMBER = 1 << 28
MAX_ZIP_TOTAL = 1 << 30


@dataclass
class FileInfo:
    """A summary of a file: format, Minecraft version, size (width, height, length) and block counts."""

    format: str
    size: tuple[int, int, int] | None = None
    data_version: int | None = None
    counts: dict[str, int] = field(default_factory=dict)
    details: dict[str, object] = field(default_factory=dict)

    def lines(self) -> list[str]:
        """The summary as text lines."""
        out = [f"format: {self.format}"]
        if self.data_version is not None:
            names = [r.name for r in RELEASES.values() if r.data_version == self.data_version]
            out.append(f"minecraft: {names[-1] if names else 'unknown release'} (DataVersion {self.data_version})")
        if self.size is not None:
            out.append("size: {} x {} x {} blocks (width x height x length)".format(*self.size))
        out.extend(f"{key}: {value}" for key, value in self.details.items())
        if self.counts:
            out.append(f"palette: {len(self.counts)} block states")
            width = max(len(name) for name in self.counts)
            for name, count in sorted(self.counts.items(), key=lambda item: (-item[1], item[0])):
                out.append(f"  {name:<{width}}  {count}")
        return out


def _need(mapping: object, key: str, kind, where: str):
    if not isinstance(mapping, dict) or key not in mapping:
        raise BlockmazeError(f"{where}{key} is missing")
    value = mapping[key]
    if kind is not None and not isinstance(value, kind):
        raise BlockmazeError(f"{where}{key} has the wrong type")
    return value


@kernel
def _varint_counts(data, count, palette_size):
    counts = np.zeros(palette_size, dtype=np.int64)
    pos, n = 0, 0
    while pos < data.size and n < count:
        value, shift = 0, 0
        while True:
            if pos >= data.size or shift > 28:
                return counts, -1
            byte = data[pos]
            pos += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        if value >= palette_size:
            return counts, -2
        counts[value] += 1
        n += 1
    if n != count or pos != data.size:
        return counts, -3
    return counts, 0


def _named_counts(palette: dict, counts: np.ndarray) -> dict[str, int]:
    names = {index: name for name, index in palette.items()}
    return {names.get(i, f"#{i}"): int(c) for i, c in enumerate(counts) if c}


def _sponge(root: dict, version: int) -> FileInfo:
    body = root if version == 2 else _need(root, "Schematic", dict, "")
    where = "" if version == 2 else "Schematic."
    size = tuple(_need(body, k, int, where) & 0xFFFF for k in ("Width", "Height", "Length"))
    blocks = body if version == 2 else _need(body, "Blocks", dict, where)
    palette = _need(blocks, "Palette", dict, where if version == 2 else where + "Blocks.")
    data = _need(blocks, "BlockData" if version == 2 else "Data", np.ndarray, where)
    if any(not isinstance(v, int) or not 0 <= v < len(palette) for v in palette.values()) \
            or len(set(palette.values())) != len(palette):
        raise BlockmazeError("the palette's indices are not 0..n-1 without repeats")
    counts, status = _varint_counts(data.view(np.uint8), size[0] * size[1] * size[2], max(len(palette), 1))
    if status:
        problem = {-1: "a malformed varint", -2: "an index outside the palette",
                   -3: "a block count that does not match the size"}[status]
        raise BlockmazeError(f"the block data has {problem}")
    details = {}
    if version == 2:
        details["PaletteMax"] = body.get("PaletteMax")
    return FileInfo(f"Sponge schematic v{version}", size, _need(body, "DataVersion", int, where),
                    _named_counts(palette, counts), details)


def _list_ints(value: object, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != 3 or not all(isinstance(v, int) for v in value):
        raise BlockmazeError(f"{where} must be a list of 3 Ints")
    return tuple(value)


def _state_name(entry: dict) -> str:
    name = _need(entry, "Name", str, "palette entry ")
    props = entry.get("Properties") or {}
    if props:
        name += "[" + ",".join(f"{k}={v}" for k, v in sorted(props.items())) + "]"
    return name


def _structure(root: dict) -> FileInfo:
    size = _list_ints(_need(root, "size", list, ""), "size")
    palette = [_state_name(e) for e in _need(root, "palette", list, "")]
    counter: Counter = Counter()
    for block in _need(root, "blocks", list, ""):
        state = _need(block, "state", int, "blocks[].")
        if not 0 <= state < len(palette):
            raise BlockmazeError("a block's state is outside the palette")
        counter[palette[state]] += 1
    return FileInfo("structure (.nbt)", size, root.get("DataVersion"), dict(counter),
                    {"blocks listed": sum(counter.values())})


def _unpack(longs: np.ndarray, bits: int, count: int) -> np.ndarray:
    """Litematica's spanning bit packing, decoded."""
    words = longs.astype(np.uint64)
    positions = np.arange(count, dtype=np.uint64) * np.uint64(bits)
    word, offset = positions >> np.uint64(6), positions & np.uint64(63)
    low = words[word] >> offset
    spill = (offset + np.uint64(bits)) > 64
    nxt = np.minimum(word + np.uint64(1), np.uint64(len(words) - 1))
    high = np.where(spill, words[nxt] << ((np.uint64(64) - offset) & np.uint64(63)), np.uint64(0))
    return ((low | high) & np.uint64((1 << bits) - 1)).astype(np.int64)


def _litematic(root: dict) -> FileInfo:
    counter: Counter = Counter()
    regions = _need(root, "Regions", dict, "")
    total = [0, 0, 0]
    for name, region in regions.items():
        where = f"Regions.{name}."
        raw = _need(region, "Size", dict, where)
        size = tuple(abs(_need(raw, k, int, where + "Size.")) for k in "xyz")
        palette = [_state_name(e) for e in _need(region, "BlockStatePalette", list, where)]
        longs = _need(region, "BlockStates", np.ndarray, where)
        volume = size[0] * size[1] * size[2]
        bits = max(2, int(len(palette) - 1).bit_length())
        if len(longs) != -(-volume * bits // 64):
            raise BlockmazeError(f"{where}BlockStates has {len(longs)} longs; {volume} blocks need "
                                 f"{-(-volume * bits // 64)}")
        values = _unpack(longs, bits, volume)
        if values.size and values.max() >= len(palette):
            raise BlockmazeError(f"{where}BlockStates has an index outside the palette")
        for index, count in zip(*np.unique(values, return_counts=True)):
            counter[palette[index]] += int(count)
        total = [max(t, s) for t, s in zip(total, size)]
    return FileInfo(f"Litematica schematic v{root.get('Version')}", tuple(total),
                    root.get("MinecraftDataVersion"), dict(counter), {"regions": len(regions)})


def _legacy(root: dict) -> FileInfo:
    size = tuple(_need(root, k, int, "") & 0xFFFF for k in ("Width", "Height", "Length"))
    blocks = _need(root, "Blocks", np.ndarray, "").view(np.uint8).astype(np.int64)
    data = _need(root, "Data", np.ndarray, "").view(np.uint8)
    volume = size[0] * size[1] * size[2]
    if blocks.size != volume or data.size != volume:
        raise BlockmazeError(f"Blocks and Data must hold {volume} entries")
    keys = blocks * 16 + (data & 15)
    counts = {f"{k // 16}:{k % 16}": int(c) for k, c in zip(*np.unique(keys, return_counts=True))}
    return FileInfo("MCEdit schematic (legacy, numeric ids)", size, None, counts,
                    {"Materials": root.get("Materials")})


def _bedrock(root: dict) -> FileInfo:
    size = _list_ints(_need(root, "size", list, ""), "size")
    structure = _need(root, "structure", dict, "")
    layers = _need(structure, "block_indices", list, "structure.")
    palette = _need(_need(_need(structure, "palette", dict, "structure."), "default", dict,
                          "structure.palette."), "block_palette", list, "structure.palette.default.")
    names = [_need(entry, "name", str, "block_palette[].") for entry in palette]
    if len(layers) != 2 or len(layers[0]) != size[0] * size[1] * size[2]:
        raise BlockmazeError("structure.block_indices must be two layers of one index per block")
    primary = np.asarray(layers[0], dtype=np.int64)
    if primary.size and (primary.max() >= len(names) or primary.min() < -1):
        raise BlockmazeError("a block index is outside the palette")
    counter = Counter()
    for index, count in zip(*np.unique(primary, return_counts=True)):
        counter["(none)" if index < 0 else names[index]] += int(count)
    return FileInfo("Bedrock structure (.mcstructure)", size, None, dict(counter),
                    {"format_version": root.get("format_version")})


def _datapack(data: bytes) -> FileInfo:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, EOFError, zlib.error, OSError) as error:
        raise BlockmazeError(f"not a readable zip: {error}") from None
    if sum(m.file_size for m in members) > MAX_ZIP_TOTAL or any(m.file_size > MAX_ZIP_MEMBER for m in members):
        raise BlockmazeError("the zip unpacks to more than this reader allows")

    def text(member) -> str:
        try:
            return archive.read(member).decode("utf-8")
        except (zipfile.BadZipFile, UnicodeDecodeError, ValueError, EOFError, NotImplementedError,
                zlib.error, OSError) as error:
            raise BlockmazeError(f"cannot read {member.filename} from the zip: {error}") from None

    names = [m.filename for m in members]
    if "pack.mcmeta" not in names:
        raise BlockmazeError("a datapack has a pack.mcmeta at its top")
    try:
        meta = json.loads(text(archive.getinfo("pack.mcmeta")))
    except json.JSONDecodeError as error:
        raise BlockmazeError(f"pack.mcmeta is not valid JSON: {error}") from None
    functions = [m for m in members if m.filename.endswith(".mcfunction")]
    commands = Counter()
    for member in functions:
        for line in text(member).splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                commands[line.split()[0]] += 1
    pack = meta.get("pack", {}) if isinstance(meta, dict) else {}
    return FileInfo("datapack (.zip)", None, None, {}, {
        "pack_format": pack.get("pack_format"), "functions": len(functions),
        "commands": ", ".join(f"{name} {count}" for name, count in sorted(commands.items())) or "none"})


def _maze_document(data: bytes) -> FileInfo:
    from .documents import parse_maze

    try:
        parsed = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise BlockmazeError(f"not valid JSON: {error}") from None
    document = parse_maze(parsed)
    grid = document.maze.grid
    return FileInfo("blockmaze maze document (.json)", None, None, {}, {
        "grid": f"{grid.kind} {'x'.join(map(str, grid.shape))}",
        "cells": f"{grid.enabled_count} enabled of {grid.size}",
        "passages": document.maze.passage_count, "perfect": document.maze.is_perfect(),
        "algorithm": document.algorithm, "seed": document.seed})


def inspect_bytes(data: bytes, name: str = "file") -> FileInfo:
    """Summarise the bytes of a file blockmaze writes; BlockmazeError if they are not one."""
    suffix = Path(name).suffix.lower()
    try:
        if data[:4] == b"PK\x03\x04":
            return _datapack(data)
        if suffix == ".json" or data[:1] == b"{":
            return _maze_document(data)
        if suffix == ".mcstructure" or (data[:1] == b"\x0a" and data[1:3] == b"\x00\x00" and suffix != ".nbt"):
            _, root = read_nbt(data, little=True)
            return _bedrock(root)
        root_name, root = read_nbt_file(data)
        if data[:2] != GZIP_MAGIC:
            raise BlockmazeError("not gzipped, as every Java format blockmaze writes is")
        if "Regions" in root:
            return _litematic(root)
        if "Materials" in root:
            return _legacy(root)
        if root_name == "Schematic" and root.get("Version") == 2:
            return _sponge(root, 2)
        if isinstance(root.get("Schematic"), dict) and root["Schematic"].get("Version") == 3:
            return _sponge(root, 3)
        if "palette" in root and "blocks" in root:
            return _structure(root)
        raise BlockmazeError("an NBT file, but not one of the formats blockmaze writes")
    except BlockmazeError as error:
        raise BlockmazeError(f"{name}: {error}") from None
    except (KeyError, TypeError, ValueError, IndexError, OverflowError) as error:
        raise BlockmazeError(f"{name}: malformed file ({type(error).__name__}: {error})") from None


def inspect_file(path: str | Path) -> FileInfo:
    """Summarise a file blockmaze writes.

    Example
    -------
    >>> import tempfile, os, blockmaze as bm
    >>> folder = tempfile.mkdtemp()
    >>> bm.write(bm.extrude(bm.to_blocks(bm.generate((2, 3), rng=1))), os.path.join(folder, "m.schem"))
    >>> inspect_file(os.path.join(folder, "m.schem")).size
    (7, 4, 5)
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise BlockmazeError(f"cannot read {path}: {error.strerror or error}") from None
    return inspect_bytes(data, path.name)


__all__ = ["FileInfo", "NbtError", "inspect_bytes", "inspect_file"]
