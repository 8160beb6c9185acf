"""Legacy MCEdit ``.schematic`` (numeric block ids) for Minecraft 1.12 and older.

Rules (docs/minecraft.md §0, §2, §10): gzip (mtime 0), root tag named
``Schematic`` holding ``Materials`` = ``"Alpha"``, Short ``Width``/``Height``/``Length``, Byte_Array
``Blocks`` (low 8 bits of each id) and ``Data`` (4-bit data value, one a byte), ``AddBlocks`` (the
high 4 bits of the ids, two a byte, even index in the low nibble) only when an id exceeds 255,
index ``y*W*L + z*W + x``, all six ``WEOriginX/Y/Z`` and ``WEOffsetX/Y/Z`` Ints (WorldEdit pastes
the min corner at player + WEOffset: it is set so the player stands outside, see placement), and empty
``TileEntities``/``Entities`` lists typed Compound.

Block states become ids through ``data/legacy_ids.json``. Matching rule: a state is looked up by
its block name; the data value is the entry's ``data`` plus, for each property the entry lists
(the ones 1.12 stores in the data value: a fence gate's ``facing``, ``open``, ``powered``, leaves'
``persistent``), the amount that property's value adds. Properties the entry does not list are
recomputed by the game from the neighbours (``in_wall``, ``snowy``, leaves' ``distance``) or do not
exist in 1.12 (``waterlogged``), and are ignored; a listed property missing from the state adds 0;
a listed property with a value the table lacks is an error. A door's halves store different
properties (``half_properties``: the lower half facing and open, the upper half hinge and powered).
Built-in themes first swap the
blocks 1.13 lacks for ones it has (``blockdata.substituted``: deepslate -> stone bricks,
scaffolding -> ladder); in a custom theme, blocks 1.12 does not have are an error naming the
material and the block, raised before a byte is written.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import BinaryIO

import numpy as np
from nbtlib import Compound, Int, List, String

from ...errors import BlockmazeError
from ...materials import Theme
from .. import register_writer, size_limits
from .blockdata import checked_theme
from .blockentities import block_entities
from .nbt import byte_array, unsigned_short, write_gzipped
from .placement import player_spot
from .states import parse_state

MAX_SIDE = 0xFFFF  # unsigned Short
MAX_BLOCKS = 0x7FFFFFFF  # a Java byte array's length
MAX_ID = 0xFFF  # 8 bits in Blocks + 4 in AddBlocks
LEGACY_ENTITIES = "1.12.2"  # the release whose block-entity layout TileEntities take


@cache
def _table() -> dict:
    text = (resources.files("blockmaze.export.minecraft") / "data" / "legacy_ids.json").read_text("utf-8")
    return json.loads(text)


def legacy_id(state: str) -> tuple[int, int]:
    """The Minecraft 1.12 (id, data) of a Java block state (see the module docstring).

    >>> legacy_id("minecraft:oak_fence_gate[facing=north,in_wall=false,open=true,powered=false]")
    (107, 6)
    >>> legacy_id("minecraft:oak_door[facing=north,half=upper,hinge=right,open=false,powered=false]")
    (64, 9)
    >>> legacy_id("minecraft:deepslate_tiles")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: minecraft:deepslate_tiles does not exist in Minecraft 1.12 (it came in 1.17)
    """
    table = _table()
    name, properties = parse_state(state)
    entry = table["blocks"].get(name)
    if entry is None:
        if name in table["missing"]:
            raise BlockmazeError(
                f"{name} does not exist in Minecraft 1.12 (it came in {table['missing'][name]})"
            )
        raise BlockmazeError(f"{name} has no Minecraft 1.12 block id in blockmaze's table")
    data = entry["data"]
    counted = entry.get("half_properties", {}).get(properties.get("half", "lower"))
    for key, values in entry.get("properties", {}).items():
        if key in properties and (counted is None or key in counted):
            if properties[key] not in values:
                raise BlockmazeError(
                    f"{state}: {key}={properties[key]} has no Minecraft 1.12 data value "
                    f"(known: {', '.join(values)})"
                )
            data += values[properties[key]]
    return entry["id"], data


def legacy_palette(blocks: np.ndarray, theme: Theme, seed: int | None = None
                   ) -> tuple[np.ndarray, np.ndarray, list]:
    """(ids, data) arrays shaped like ``blocks``: the theme's states as 1.12 ids and data values,
    and the block entities of the spawn points, in 1.12's layout (:mod:`~.blockentities`).

    Every state the theme may draw for a present material (variants included) is checked first,
    so a missing id fails the same way whatever the seed.
    """
    from .blockdata import LEGACY_RELEASE, substituted
    from .palette import translated_palette

    theme = substituted(theme, LEGACY_RELEASE)  # built-in themes: blocks 1.13 has
    indices, palette, ids = translated_palette(  # (shafts: ladders)
        blocks, theme, seed, legacy_id,
        "a 1.12 .schematic cannot hold: {error}; use a .schem or another theme", LEGACY_RELEASE)
    pairs = np.array(ids, dtype=np.uint16).reshape(-1, 2)
    entities = block_entities(blocks, indices, palette, seed, LEGACY_ENTITIES)
    return pairs[indices, 0], pairs[indices, 1].astype(np.uint8), entities


def write_schematic(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    seed: int | None = None,
) -> None:
    """Write a (y, z, x) volume as an MCEdit ``.schematic`` for Minecraft 1.12 and older.

    ``seed`` draws the theme's weighted variants (see :func:`minecraft_palette`). Spawn points
    carry their block entities in ``TileEntities`` (``x``, ``y``, ``z``, ``id`` and fields, as
    1.11 and 1.12 name them; 1.9 to 1.12 read loot tables).

    Example
    -------
    >>> import io
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_schematic(np.ones((1, 2, 3), np.uint8), out, load_theme())
    >>> out.getvalue()[:2] == b"\\x1f\\x8b"   # gzip
    True
    """
    check_size(blocks.shape)
    ids, data, entities = legacy_palette(blocks, theme, seed)
    height, length, width = blocks.shape
    if ids.size and int(ids.max()) > MAX_ID:
        raise BlockmazeError(f"block id {int(ids.max())} does not fit a .schematic (at most {MAX_ID})")
    root = {
        "Width": unsigned_short(width),
        "Height": unsigned_short(height),
        "Length": unsigned_short(length),
        "Materials": String("Alpha"),
        "Blocks": byte_array((ids & 0xFF).astype(np.uint8).ravel()),
        "Data": byte_array(data.ravel()),
    }
    high = (ids >> 8).astype(np.uint8).ravel()
    if high.any():
        padded = np.zeros(2 * ((high.size + 1) // 2), dtype=np.uint8)
        padded[:high.size] = high
        root["AddBlocks"] = byte_array(padded[0::2] | (padded[1::2] << 4))
    for axis in "XYZ":
        root[f"WEOrigin{axis}"] = Int(0)
    for axis, offset in zip("XYZ", player_spot(blocks).offset, strict=True):
        root[f"WEOffset{axis}"] = Int(offset)
    root["TileEntities"] = List[Compound]([
        Compound({**e.tag(), "x": Int(e.position[2]), "y": Int(e.position[0]), "z": Int(e.position[1])})
        for e in entities])
    root["Entities"] = List[Compound]()
    write_gzipped(Compound(root), file, root_name="Schematic")


check_size = size_limits(".schematic", max_side=MAX_SIDE, max_blocks=MAX_BLOCKS)


register_writer("schematic", write_schematic, check_size, prepare_theme=checked_theme)
