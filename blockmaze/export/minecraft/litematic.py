"""Litematica schematic ``.litematic``: one region, block states packed in a Long_Array.

Rules (docs/minecraft.md §4): gzip, unnamed root; ``Version`` as the
Litematica build for the release writes it (5 up to 1.17.x without ``SubVersion``; 6 from 1.18
and 7 from 1.20.5, with ``SubVersion`` 1: see ``Release.litematic_version``; a build refuses a
newer Version); ``BlockStatePalette`` entry 0 is
**always** ``minecraft:air`` (Litematica assumes it and otherwise shifts every block by one);
each block takes ``bits = max(2, ceil(log2(palette size)))`` bits of a little-endian bit stream
cut into 64-bit longs, entries *spanning* two longs where they meet, in y, z, x order (x fastest);
the array holds exactly ``ceil(volume * bits / 64)`` longs; the four tick/entity lists are
present (litemapy needs them) and typed. ``TimeCreated``/``TimeModified`` are 0 (1970-01-01) so
that the same input gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import BinaryIO

import numpy as np
from nbtlib import Compound, Int, List, Long, LongArray, String

from ...errors import BlockmazeError
from ...materials import Theme
from .. import register_writer, size_limits
from .blockdata import release_theme
from .blockentities import BlockEntity, block_entities
from .nbt import write_gzipped
from .palette import AIR_STATES, block_state_tag, minecraft_palette
from .placement import player_spot
from .versions import DEFAULT_MC_VERSION, release

AIR = "minecraft:air"
REGION_NAME = "maze"
TIME_STAMP = 0  # TimeCreated and TimeModified (ms since 1970): a constant, for identical bytes
MAX_VOLUME = 0x7FFFFFFF  # Litematica indexes blocks with a Java int


def write_litematic(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    mc_version: str = DEFAULT_MC_VERSION,
    seed: int | None = None,
) -> None:
    """Write a (y, z, x) material volume as a one-region Litematica schematic, drawn with ``theme``.

    ``seed`` draws the theme's weighted variants (see :func:`minecraft_palette`). The region lies
    so the player who makes the placement stands outside it, in front of the entrance
    (:func:`~.placement.player_spot`).

    Example
    -------
    >>> import io
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_litematic(np.ones((1, 2, 3), np.uint8), out, load_theme())
    >>> out.getvalue()[:2] == b"\\x1f\\x8b"   # gzip
    True
    """
    indices, palette = minecraft_palette(blocks, theme, seed, mc_version)
    write_indexed(indices, palette, file, mc_version, position=player_spot(blocks).offset,
                  entities=block_entities(blocks, indices, palette, seed, mc_version))


def write_indexed(
    indices: np.ndarray,
    palette: list[str],
    file: BinaryIO,
    mc_version: str = DEFAULT_MC_VERSION,
    name: str = "maze",
    description: str = "",
    position: tuple[int, int, int] = (0, 0, 0),
    entities: Iterable[BlockEntity] = (),
) -> None:
    """Write palette indices (y, z, x) and their block-state strings as a Litematica schematic.

    ``position`` (x, y, z) is the region's min corner relative to the placement origin, which
    Litematica puts at the player's position when a placement is made. ``entities`` (block
    entities) go to the region's ``TileEntities``: ``x``, ``y``, ``z`` in the region, ``id`` and
    their fields.

    The palette is reordered so that ``minecraft:air`` comes first (added if absent).
    """
    check_size(indices.shape)
    target = release(mc_version)
    if len(set(palette)) != len(palette):
        raise BlockmazeError("the palette lists a block state twice")
    if indices.size and (indices.min() < 0 or indices.max() >= len(palette)):
        raise BlockmazeError("a block index is outside the palette")
    height, length, width = indices.shape
    indices, palette = air_first(np.asarray(indices), palette)
    volume = width * height * length
    solid = np.array([state not in AIR_STATES for state in palette], dtype=bool)
    total_blocks = int(np.count_nonzero(solid[indices]))
    size = Compound({"x": Int(width), "y": Int(height), "z": Int(length)})
    region = Compound({
        "Position": Compound({axis: Int(v) for axis, v in zip("xyz", position, strict=True)}),
        "Size": size,
        "BlockStatePalette": List[Compound]([block_state_tag(state) for state in palette]),
        "BlockStates": LongArray(pack_spanning(indices.ravel(), bits_for(len(palette)))),
        "TileEntities": List[Compound]([
            Compound({"x": Int(e.position[2]), "y": Int(e.position[0]), "z": Int(e.position[1]), **e.tag()})
            for e in entities]),
        "Entities": List[Compound](),
        "PendingBlockTicks": List[Compound](),
        "PendingFluidTicks": List[Compound](),
    })
    root = Compound({
        "Version": Int(target.litematic_version),
        **({} if target.litematic_subversion is None else {"SubVersion": Int(target.litematic_subversion)}),
        "MinecraftDataVersion": Int(target.data_version),
        "Metadata": Compound({
            "Name": String(name),
            "Author": String("blockmaze"),
            "Description": String(description or f"a {width}x{height}x{length} maze made by blockmaze"),
            "RegionCount": Int(1),
            "TotalVolume": Int(volume),
            "TotalBlocks": Int(total_blocks),
            "TimeCreated": Long(TIME_STAMP),
            "TimeModified": Long(TIME_STAMP),
            "EnclosingSize": Compound(size),
        }),
        "Regions": Compound({REGION_NAME: region}),
    })
    write_gzipped(root, file, root_name="")


def air_first(indices: np.ndarray, palette: list[str]) -> tuple[np.ndarray, list[str]]:
    """The palette with ``minecraft:air`` at index 0 (moved or added) and indices to match.

    >>> indices, palette = air_first(np.array([0, 1, 2]), ["minecraft:stone", "minecraft:air", "minecraft:dirt"])
    >>> indices.tolist(), palette
    ([1, 0, 2], ['minecraft:air', 'minecraft:stone', 'minecraft:dirt'])
    """
    if palette[:1] == [AIR]:
        return indices, palette
    others = [state for state in palette if state != AIR]
    renumber = np.array([0 if state == AIR else others.index(state) + 1 for state in palette],
                        dtype=np.uint32 if len(palette) >= 0xFFFF else np.uint16)
    return renumber[indices], [AIR, *others]


def bits_for(palette_size: int) -> int:
    """Bits a block takes: enough for every palette index, and at least 2 (as Litematica).

    >>> [bits_for(n) for n in (1, 2, 4, 5, 8, 9, 16, 17)]
    [2, 2, 2, 3, 3, 4, 4, 5]
    """
    return max(2, (palette_size - 1).bit_length())


def pack_spanning(values: np.ndarray, bits: int) -> np.ndarray:
    """Pack ``values`` (each < 2**bits) into signed 64-bit longs, ``bits`` bits each.

    Value *i* fills bits ``i*bits .. (i+1)*bits - 1`` of one little-endian bit stream, which is
    cut into longs (bit 0 of a long is its least significant); a value may span two longs. The
    result has exactly ``ceil(len(values) * bits / 64)`` longs.

    >>> pack_spanning(np.array([1, 2, 3]), 2).tolist()   # 0b11_10_01
    [57]
    >>> pack_spanning(np.full(22, 0b110), 3)[1].item()   # value 21 spans longs 0 and 1
    3
    """
    count = len(values)
    longs = -(-count * bits // 64)
    # One byte per bit, least significant bit first, then packed 8 bits to a byte.
    shifts = np.arange(bits, dtype=np.uint32)
    bit_stream = ((values.astype(np.uint32)[:, None] >> shifts) & 1).astype(np.uint8)
    packed = np.packbits(bit_stream.reshape(-1), bitorder="little")
    padded = np.zeros(longs * 8, dtype=np.uint8)
    padded[:packed.size] = packed
    return padded.view("<i8")


check_size = size_limits(".litematic (one region)", max_blocks=MAX_VOLUME)


register_writer("litematic", write_litematic, check_size, prepare_theme=release_theme,
                java_states=True)
