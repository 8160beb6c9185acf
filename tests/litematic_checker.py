"""A strict, independent reader and checker for Litematica schematics ``.litematic``.

Written from docs/minecraft.md (§0, §4, §8, §10, §11), not from blockmaze: it
parses NBT with twoolie's ``nbt`` package and unpacks the block states itself, entry by entry
as Litematica's bit array reads them (a value may span two longs). Every rule Litematica and
litemapy depend on is checked — palette entry 0 is ``minecraft:air``, ``bits = max(2,
ceil(log2 n))``, exactly ``ceil(volume * bits / 64)`` longs, ``Version`` 6 before 1.20.5 and 7
from it, typed tick and entity lists, metadata that agrees with the regions — and a violation
raises :class:`LitematicError` naming the field and the rule.

Example
-------
>>> unpack_spanning([0b111001], 2, 3)
[1, 2, 3]
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
from nbt import nbt

from structure_checker import MIN_DATA_VERSION, StrictNbt

AIR = "minecraft:air"
AIR_STATES = {"minecraft:air", "minecraft:cave_air", "minecraft:void_air"}
V7_FROM_DATA_VERSION = 3837  # 1.20.5 (§4, §8): Litematica writes Version 7 from here on
V6_FROM_DATA_VERSION = 2860  # 1.18: Version 6 (maruohon/litematica pre-rewrite/fabric/1.18.x)
REGION_LISTS = ("TileEntities", "Entities", "PendingBlockTicks", "PendingFluidTicks")
METADATA_STRINGS = ("Name", "Author", "Description")
METADATA_INTS = ("RegionCount", "TotalVolume", "TotalBlocks")
METADATA_LONGS = ("TimeCreated", "TimeModified")


class LitematicError(ValueError):
    """A .litematic file breaks a rule of the format (or of the readers that matter)."""


_STRICT = StrictNbt(LitematicError)


def expected_version(data_version: int) -> int:
    """Litematica's schematic Version for a release's DataVersion (§4; 5 before 1.18: the
    SCHEMATIC_VERSION of maruohon/litematica's 1.13.2-1.17.x branches)."""
    if data_version >= V7_FROM_DATA_VERSION:
        return 7
    return 6 if data_version >= V6_FROM_DATA_VERSION else 5


def bits_needed(palette_size: int) -> int:
    """``max(2, ceil(log2 n))``, as §4 states it.

    >>> [bits_needed(n) for n in (2, 3, 4, 5, 8, 9, 256, 257)]
    [2, 2, 2, 3, 3, 4, 8, 9]
    """
    bits = 0
    while (1 << bits) < palette_size:
        bits += 1
    return max(2, bits)


def unpack_spanning(longs: list[int], bits: int, count: int) -> list[int]:
    """Read ``count`` values of ``bits`` bits from signed longs, as Litematica's bit array does.

    Value *i* starts at bit ``i*bits`` of the stream; bit 0 of a long is its least significant.
    A value that crosses a long boundary takes its high bits from the next long.
    """
    mask = (1 << bits) - 1
    words = [value & 0xFFFFFFFFFFFFFFFF for value in longs]
    values = []
    for i in range(count):
        start = i * bits
        word, offset = start >> 6, start & 63
        value = words[word] >> offset
        if offset + bits > 64:
            value |= words[word + 1] << (64 - offset)
        values.append(value & mask)
    return values


@dataclass
class Region:
    """One region: ``size`` and ``position`` are (x, y, z); ``indices`` is shaped (y, z, x)."""

    position: tuple[int, int, int]
    size: tuple[int, int, int]
    palette: list[str]  # canonical state strings
    bits: int
    longs: list[int]
    indices: np.ndarray

    @property
    def blocks(self) -> np.ndarray:
        """Block-state strings, an object array shaped (y, z, x)."""
        return np.array(self.palette, dtype=object)[self.indices]


@dataclass
class LitematicFile:
    """What a valid .litematic holds."""

    version: int
    sub_version: int | None
    data_version: int
    metadata: dict
    regions: dict[str, Region]


def read_litematic(source: bytes | str | os.PathLike, data_version: int | None = None) -> LitematicFile:
    """Read and check a .litematic (path or bytes); ``data_version`` is enforced if given."""
    root = _STRICT.parse(source)
    if root.name != "":
        raise LitematicError(f"root tag is named {root.name!r}; Litematica writes an unnamed root")
    found = _STRICT.int(root, "MinecraftDataVersion", "MinecraftDataVersion")
    if found < MIN_DATA_VERSION:
        raise LitematicError(f"MinecraftDataVersion {found} predates block-state palettes ({MIN_DATA_VERSION})")
    if data_version is not None and found != data_version:
        raise LitematicError(f"MinecraftDataVersion is {found}, expected {data_version}")
    version = _STRICT.int(root, "Version", "Version")
    if version != expected_version(found):
        raise LitematicError(
            f"Version is {version} but MinecraftDataVersion {found} calls for {expected_version(found)} "
            "(5 before 1.18, 6 before 1.20.5, 7 from 1.20.5; a Litematica build rejects newer)"
        )
    # SubVersion: written from Version 6 on; the Version 5 builds (1.13-1.17) write none
    sub_version = _STRICT.int(root, "SubVersion", "SubVersion") if version >= 6 else None
    if version < 6 and any(tag.name == "SubVersion" for tag in root.tags):
        raise LitematicError("SubVersion in a Version 5 file: the 1.13-1.17 builds write none")
    metadata_tag = _STRICT.tag(root, "Metadata", nbt.TAG_COMPOUND, "Metadata")
    for name in METADATA_STRINGS:
        value = _STRICT.tag(metadata_tag, name, nbt.TAG_STRING, f"Metadata.{name}").value
        if not value.isascii():
            raise LitematicError(f"Metadata.{name} {value!r} is not ASCII")
    for name in METADATA_INTS:
        _STRICT.int(metadata_tag, name, f"Metadata.{name}")
    for name in METADATA_LONGS:
        _STRICT.tag(metadata_tag, name, nbt.TAG_LONG, f"Metadata.{name}")
    enclosing = _STRICT.xyz(metadata_tag, "EnclosingSize", "Metadata.EnclosingSize")
    metadata = _STRICT.plain(metadata_tag)
    regions_tag = _STRICT.tag(root, "Regions", nbt.TAG_COMPOUND, "Regions")
    regions = {tag.name: _region(tag, f"Regions.{tag.name}") for tag in regions_tag.tags}
    if not regions:
        raise LitematicError("Regions is empty")
    if metadata["RegionCount"] != len(regions):
        raise LitematicError(f"Metadata.RegionCount is {metadata['RegionCount']}, there are {len(regions)} regions")
    volume = sum(int(np.prod(r.size)) for r in regions.values())
    if metadata["TotalVolume"] != volume:
        raise LitematicError(f"Metadata.TotalVolume is {metadata['TotalVolume']}, the regions hold {volume}")
    solid = sum(int(np.isin(r.blocks, list(AIR_STATES), invert=True).sum()) for r in regions.values())
    if metadata["TotalBlocks"] != solid:
        raise LitematicError(
            f"Metadata.TotalBlocks is {metadata['TotalBlocks']}, the regions hold {solid} non-air blocks"
        )
    low = np.min([r.position for r in regions.values()], axis=0)
    high = np.max([np.add(r.position, r.size) for r in regions.values()], axis=0)
    if tuple(int(v) for v in high - low) != enclosing:
        raise LitematicError(
            f"Metadata.EnclosingSize is {enclosing}, the regions span {tuple(int(v) for v in high - low)}"
        )
    return LitematicFile(version=version, sub_version=sub_version, data_version=found,
                         metadata=metadata, regions=regions)


def _region(tag, path: str) -> Region:
    _STRICT.expect_type(tag, nbt.TAG_COMPOUND, path)
    position = _STRICT.xyz(tag, "Position", f"{path}.Position")
    size = _STRICT.xyz(tag, "Size", f"{path}.Size")
    if min(size) < 1:
        # Negative sizes are legal for Litematica (the region grows the other way); blockmaze
        # writes positive ones, and this checker reads only those.
        raise LitematicError(f"{path}.Size {size} is not positive")
    entries = _STRICT.list(tag, "BlockStatePalette", nbt.TAG_COMPOUND, f"{path}.BlockStatePalette")
    palette = [_STRICT.block_state(entry, f"{path}.BlockStatePalette[{i}]") for i, entry in enumerate(entries)]
    if not palette or palette[0] != AIR:
        first = palette[0] if palette else "nothing"
        raise LitematicError(
            f"{path}.BlockStatePalette[0] is {first}; it must be {AIR} (Litematica assumes entry 0 "
            "is air and would shift every block)"
        )
    if len(set(palette)) != len(palette):
        raise LitematicError(f"{path}.BlockStatePalette lists a block state twice")
    width, height, length = size
    volume = width * height * length
    bits = bits_needed(len(palette))
    longs = list(_STRICT.tag(tag, "BlockStates", nbt.TAG_LONG_ARRAY, f"{path}.BlockStates").value)
    expected = -(-volume * bits // 64)
    if len(longs) != expected:
        raise LitematicError(
            f"{path}.BlockStates holds {len(longs)} longs; {volume} blocks of {bits} bits "
            f"({len(palette)} palette entries) need exactly {expected}"
        )
    values = unpack_spanning(longs, bits, volume)
    beyond = [i for i, value in enumerate(values) if value >= len(palette)]
    if beyond:
        raise LitematicError(
            f"{path}.BlockStates entry {beyond[0]} is {values[beyond[0]]}, outside the palette (0..{len(palette) - 1})"
        )
    used_bits = volume * bits
    if longs and used_bits % 64 and (longs[-1] & 0xFFFFFFFFFFFFFFFF) >> (used_bits % 64):
        raise LitematicError(f"{path}.BlockStates has bits set after its last entry")
    for name in REGION_LISTS:
        _STRICT.list(tag, name, nbt.TAG_COMPOUND, f"{path}.{name}")
    # index = y * X * Z + z * X + x (§4, §12): a C-order (y, z, x) array
    indices = np.array(values, dtype=np.int64).reshape(height, length, width)
    return Region(position=position, size=size, palette=palette, bits=bits, longs=longs, indices=indices)
