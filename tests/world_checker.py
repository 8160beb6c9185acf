"""A strict checker of Java world saves (1.18+ Anvil), written from the format, not from blockmaze.

Sources: docs/minecraft.md §6 and the Minecraft Wiki's "Region file format"
and "Chunk format" pages. NBT is parsed with twoolie's ``nbt`` package (a second NBT
implementation that exposes every tag's type); packed longs are decoded here, bit by bit. Every
violation raises :class:`WorldError` naming the file, chunk and rule.
"""

from __future__ import annotations

import io
import re
import struct
import zlib
from pathlib import Path

import numpy as np
from nbt import nbt

SECTOR = 4096
SECTION_YS = set(range(-4, 20))
REGION_NAME = re.compile(r"^r\.(-?\d+)\.(-?\d+)\.mca$")


class WorldError(ValueError):
    """A world file breaks a rule of the format."""


def unpack(longs, bits: int, count: int) -> list[int]:
    """Values of ``bits`` bits, ``64 // bits`` per long from the low end, none spanning two longs."""
    per = 64 // bits
    if len(longs) != -(-count // per):
        raise WorldError(f"{len(longs)} longs for {count} values of {bits} bits (need {-(-count // per)})")
    out = []
    for i in range(count):
        word = longs[i // per] & 0xFFFFFFFFFFFFFFFF
        out.append((word >> ((i % per) * bits)) & ((1 << bits) - 1))
    for word in longs:  # the unused high bits of every long are zero
        if (word & 0xFFFFFFFFFFFFFFFF) >> (per * bits):
            raise WorldError("a long has bits set above its last value")
    return out


def _need(compound, name: str, tag_id: int, where: str):
    if name not in compound:
        raise WorldError(f"{where}: {name} is missing")
    tag = compound[name]
    if tag.id != tag_id:
        raise WorldError(f"{where}: {name} is tag {tag.id}, not {tag_id}")
    return tag


def check_region(path: Path, data_version: int, heightmaps: bool = True) -> dict[tuple[int, int], nbt.TAG_Compound]:
    """Check one region file; return its chunks by (cx, cz). ``heightmaps=False``: a chunk may
    lack them (one ``--into`` rewrote: the game computes them)."""
    match = REGION_NAME.match(path.name)
    if not match:
        raise WorldError(f"{path.name}: not a region file name r.X.Z.mca")
    rx, rz = int(match[1]), int(match[2])
    data = path.read_bytes()
    if len(data) < 2 * SECTOR or len(data) % SECTOR:
        raise WorldError(f"{path.name}: {len(data)} bytes is not a header plus whole 4 KiB sectors")
    locations = struct.unpack(">1024I", data[:SECTOR])
    stamps = struct.unpack(">1024I", data[SECTOR:2 * SECTOR])
    used = np.zeros(len(data) // SECTOR, dtype=np.int32)
    used[:2] = 1
    chunks = {}
    for slot, location in enumerate(locations):
        if location == 0:
            if stamps[slot]:
                raise WorldError(f"{path.name}: slot {slot} is empty but has a timestamp")
            continue
        offset, count = location >> 8, location & 0xFF
        if offset < 2 or count == 0 or offset + count > used.size:
            raise WorldError(f"{path.name}: slot {slot} points at sectors {offset}+{count}, outside the file")
        if used[offset:offset + count].any():
            raise WorldError(f"{path.name}: slot {slot} overlaps another chunk or the header")
        used[offset:offset + count] = 1
        start = offset * SECTOR
        length, compression = struct.unpack(">IB", data[start:start + 5])
        if not (count - 1) * SECTOR < length + 4 <= count * SECTOR:
            raise WorldError(f"{path.name}: slot {slot}: length {length} does not need exactly {count} sectors")
        if compression != 2:
            raise WorldError(f"{path.name}: slot {slot}: compression {compression}, expected 2 (zlib)")
        if any(data[start + 4 + length:start + count * SECTOR]):
            raise WorldError(f"{path.name}: slot {slot}: the sector padding is not zero")
        raw = zlib.decompress(data[start + 5:start + 4 + length])
        cx, cz = rx * 32 + slot % 32, rz * 32 + slot // 32
        chunks[cx, cz] = check_chunk(nbt.NBTFile(buffer=io.BytesIO(raw)), cx, cz, data_version,
                                     f"{path.name} chunk {cx},{cz}", heightmaps)
    return chunks


def check_chunk(root, cx: int, cz: int, data_version: int, where: str, heightmaps: bool = True):
    """Check a 1.18+ chunk's fields and every section; return the root."""
    if root.name != "":
        raise WorldError(f"{where}: the root compound is named {root.name!r}")
    if "Level" in root:
        raise WorldError(f"{where}: a Level wrapper (pre-1.18 layout)")
    for name, value in (("DataVersion", data_version), ("xPos", cx), ("zPos", cz), ("yPos", -4)):
        if _need(root, name, nbt.TAG_INT, where).value != value:
            raise WorldError(f"{where}: {name} is {root[name].value}, expected {value}")
    if _need(root, "Status", nbt.TAG_STRING, where).value not in ("minecraft:full", "full"):
        raise WorldError(f"{where}: Status {root['Status'].value!r} is not a finished chunk")
    if _need(root, "isLightOn", nbt.TAG_BYTE, where).value != 0:
        raise WorldError(f"{where}: isLightOn set without light data")
    for name in ("LastUpdate", "InhabitedTime"):
        _need(root, name, nbt.TAG_LONG, where)
    for name in ("block_entities", "block_ticks", "fluid_ticks"):
        _need(root, name, nbt.TAG_LIST, where)
    structures = _need(root, "structures", nbt.TAG_COMPOUND, where)
    for name in ("References", "starts"):
        _need(structures, name, nbt.TAG_COMPOUND, where + " structures")
    maps = _need(root, "Heightmaps", nbt.TAG_COMPOUND, where)
    if heightmaps or "WORLD_SURFACE" in maps:
        surface = _need(maps, "WORLD_SURFACE", nbt.TAG_LONG_ARRAY, where)
        heights = unpack(list(surface.value), 9, 256)
        if max(heights) > 384:
            raise WorldError(f"{where}: a height above the world")
    sections = _need(root, "sections", nbt.TAG_LIST, where)
    ys = [_need(section, "Y", nbt.TAG_BYTE, where).value for section in sections]
    if len(set(ys)) != len(ys) or not set(ys) <= SECTION_YS:
        raise WorldError(f"{where}: section Ys {ys} repeat or leave -4..19")
    for section in sections:
        check_section(section, f"{where} section {section['Y'].value}")
    return root


def check_section(section, where: str) -> list[str]:
    """Check one section; return its 4096 block states in y, z, x order."""
    states = _need(section, "block_states", nbt.TAG_COMPOUND, where)
    palette = _need(states, "palette", nbt.TAG_LIST, where)
    if len(palette) == 0 or palette.tagID != nbt.TAG_COMPOUND:
        raise WorldError(f"{where}: block palette empty or not compounds")
    names = []
    for entry in palette:
        name = _need(entry, "Name", nbt.TAG_STRING, where).value
        props = entry["Properties"] if "Properties" in entry else None
        inside = ",".join(f"{k}={v.value}" for k, v in props.items()) if props is not None else ""
        names.append(name + (f"[{inside}]" if inside else ""))
    if len(set(names)) != len(names):
        raise WorldError(f"{where}: a block state repeats in the palette")
    if len(names) == 1:
        if "data" in states:
            raise WorldError(f"{where}: data beside a one-entry palette")
        indices = [0] * 4096
    else:
        bits = max(4, (len(names) - 1).bit_length())
        indices = unpack(list(_need(states, "data", nbt.TAG_LONG_ARRAY, where).value), bits, 4096)
        if max(indices) >= len(names):
            raise WorldError(f"{where}: a block index outside the palette")
    biomes = _need(section, "biomes", nbt.TAG_COMPOUND, where)
    biome_palette = _need(biomes, "palette", nbt.TAG_LIST, where)
    if len(biome_palette) == 0 or biome_palette.tagID != nbt.TAG_STRING:
        raise WorldError(f"{where}: biome palette empty or not strings")
    if len(biome_palette) > 1:
        unpack(list(_need(biomes, "data", nbt.TAG_LONG_ARRAY, where).value),
               (len(biome_palette) - 1).bit_length(), 64)
    return [names[i] for i in indices]


def check_world(folder: Path, data_version: int, heightmaps: bool = True) -> dict:
    """Check every region file of a world folder; return all chunks by (cx, cz)."""
    chunks = {}
    for path in sorted((Path(folder) / "region").iterdir()):
        chunks.update(check_region(path, data_version, heightmaps))
    return chunks
