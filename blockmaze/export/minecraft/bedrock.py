"""Bedrock ``.mcstructure``: uncompressed little-endian NBT (docs/minecraft.md §7).

Root (unnamed): ``format_version`` Int 1, ``size`` List of 3 Int (x, y, z), ``structure`` {
``block_indices``: List of exactly two List Int (the blocks; then the water-logging layer, all -1),
``entities``: empty List Compound, ``palette``: {``default``: {``block_palette``: List of
``{name, states, version}``, ``block_position_data``: empty Compound}}}, ``structure_world_origin``
List of 3 Int (0, 0, 0). Blocks are ordered x, y, z with **z fastest**: index ``x*H*L + y*L + z``.

Java states become Bedrock states through ``data/bedrock_blocks.json``, written for Bedrock
1.21.90 and newer: the flattened names of 1.21 (``minecraft:stone_bricks``, ``mossy_stone_bricks``,
``coarse_dirt``, ``oak_leaves``, ``white_concrete``, ``lime_wool``, ``grass_block``, ``sea_lantern``;
not the legacy ``stonebrick`` + ``stone_brick_type``, which Bedrock 1.21.20 renamed), oak fence
gates as ``minecraft:fence_gate`` facing with ``minecraft:cardinal_direction``. State types follow
Bedrock: String enums, Int scalars, Byte booleans. Matching rule: the block name picks the entry,
whose ``states`` are written as defaults; each Java property the entry lists sets its Bedrock
state; other Java properties (``waterlogged``, ``powered``, leaves' ``distance``, ``snowy``) have
no Bedrock state and are ignored; a listed property with an unknown value is an error.

``version`` in each palette entry is the packed block-state version the states are written in
(major << 24 | minor << 16 | patch << 8 | revision). It is not the game's version but that of the
last release that changed block states: 1.21.60.33 = ``0x01153C21`` = 18168865, the number
Bedrock's own block palette carries on every state from 1.21.60 to 1.26.60 (1.21.90 included;
minecraft-data's ``bedrock/*/blockStates.json``, dumped from the game). Older files use older numbers (the
reference's 17959425 = 1.18.10.1); Bedrock upgrades states from the version a file gives, so the
number must match the names used.

Load it from a behaviour pack's ``structures/<namespace>/<name>.mcstructure`` with
``/structure load <namespace>:<name> <position>`` or a structure block.
"""

from __future__ import annotations

from functools import partial
import json
import struct
from functools import cache
from importlib import resources
from typing import BinaryIO

import nbtlib
import numpy as np
from nbtlib import Byte, Compound, Int, List, String

from ...errors import BlockmazeError
from ...materials import Theme
from .. import register_writer, size_limits
from .placement import placement_hint
from .blockdata import checked_theme
from ..zipped import Part, Repeat, write_parts
from .blockentities import bedrock_entity, block_entities
from .states import parse_state

BLOCK_VERSION = (1 << 24) | (21 << 16) | (60 << 8) | 33  # block states 1.21.60.33 = 18168865
MAX_BLOCKS = 0x7FFFFFFF  # an NBT list's length
TAG_INT = 3


@cache
def _table() -> dict:
    text = (resources.files("blockmaze.export.minecraft") / "data" / "bedrock_blocks.json").read_text("utf-8")
    return json.loads(text)["blocks"]


def _tag(value):
    if isinstance(value, dict):
        return Byte(value["byte"])
    if isinstance(value, bool):
        raise TypeError("booleans are written as {'byte': 0 or 1}")
    if isinstance(value, int):
        return Int(value)
    return String(value)


def bedrock_state(state: str) -> tuple[str, dict]:
    """The Bedrock block name and states (as nbtlib tags) of a Java block state.

    >>> name, states = bedrock_state("minecraft:oak_leaves[distance=7,persistent=true]")
    >>> name, {k: (type(v).__name__, int(v)) for k, v in states.items()}
    ('minecraft:oak_leaves', {'persistent_bit': ('Byte', 1), 'update_bit': ('Byte', 0)})
    """
    name, properties = parse_state(state)
    entry = _table().get(name)
    if entry is None:
        raise BlockmazeError(f"{name} has no Bedrock block in blockmaze's table")
    values = dict(entry["states"])
    for key, rule in entry.get("properties", {}).items():
        if key in properties:
            if properties[key] not in rule["values"]:
                raise BlockmazeError(
                    f"{state}: {key}={properties[key]} has no Bedrock equivalent "
                    f"(known: {', '.join(rule['values'])})"
                )
            values[rule["state"]] = rule["values"][properties[key]]
    return entry["name"], {key: _tag(values[key]) for key in sorted(values)}


class _IntList(nbtlib.List[nbtlib.Int]):
    """A List of Int tags written straight from a numpy array, or as one value repeated (millions
    of blocks, no tag objects). Written into a :class:`_Parts`, the values stay a part of their own."""

    __slots__ = ("array", "fill", "count")

    def __new__(cls, array: np.ndarray | None = None, fill: int = 0, count: int = 0):
        tag = super().__new__(cls, ())
        tag.array = None if array is None else np.ascontiguousarray(array, dtype=np.int32)
        tag.fill, tag.count = fill, (count if array is None else tag.array.size)
        return tag

    def __init__(self, array: np.ndarray | None = None, fill: int = 0, count: int = 0):
        super().__init__(())

    def write(self, fileobj, byteorder="big"):
        order = "<" if byteorder == "little" else ">"
        fileobj.write(struct.pack(f"{order}bi", TAG_INT, self.count))
        if self.array is not None:
            values = [self.array.astype(f"{order}i4", copy=False).data.cast("B")]
        else:  # a run: 1 MiB of the value, repeated (deflated once inside a .mcpack)
            chunk = struct.pack(f"{order}i", self.fill) * min(self.count, 1 << 18)
            whole, rest = divmod(self.count * 4, len(chunk)) if chunk else (0, 0)
            values = [Repeat(chunk, whole), chunk[:rest]]
        if isinstance(fileobj, _Parts):
            fileobj.add(values)
        else:
            write_parts(fileobj, values)


class _Parts:
    """A binary file that keeps what is written as a list of parts: small writes joined, the
    block arrays (:class:`_IntList`) as they are."""

    def __init__(self):
        self.parts: list[Part] = []
        self._small = bytearray()

    def write(self, data) -> None:
        self._small += data

    def add(self, values: list[Part]) -> None:
        self.parts.append(bytes(self._small))
        self._small.clear()
        self.parts.extend(values)

    def close(self) -> list[Part]:
        self.parts.append(bytes(self._small))
        return self.parts


def write_mcstructure(
    blocks: np.ndarray,
    file: BinaryIO,
    theme: Theme,
    seed: int | None = None,
) -> None:
    """Write a (y, z, x) volume as a Bedrock ``.mcstructure`` (see the module docstring).

    ``seed`` draws the theme's weighted variants (see :func:`minecraft_palette`). Spawn points
    carry their block entities in ``block_position_data`` (:func:`~.blockentities.bedrock_entity`).

    Example
    -------
    >>> import io
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_mcstructure(np.ones((1, 2, 3), np.uint8), out, load_theme())
    >>> out.getvalue()[:3]   # a Compound named "" (little-endian length 0)
    b'\\n\\x00\\x00'
    """
    write_parts(file, mcstructure_parts(blocks, theme, seed))


def mcstructure_parts(blocks: np.ndarray, theme: Theme, seed: int | None = None) -> list[Part]:
    """The ``.mcstructure`` bytes of :func:`write_mcstructure` as parts for
    :func:`~blockmaze.export.zipped.write_zip`: the water-logging layer, all ``-1``, is one
    :class:`~blockmaze.export.zipped.Repeat` (deflated once in a pack).

    >>> from blockmaze.materials import load_theme
    >>> parts = mcstructure_parts(np.ones((1, 2, 3), np.uint8), load_theme())
    >>> [type(part).__name__ for part in parts]
    ['bytes', 'memoryview', 'bytes', 'Repeat', 'bytes', 'bytes']
    """
    from .palette import translated_palette

    check_size(blocks.shape)
    indices, palette, states = translated_palette(blocks, theme, seed, bedrock_state,
                                                  "blockmaze cannot write for Bedrock: {error}")
    height, length, width = blocks.shape
    positions = Compound({  # spawn points: block index (x, y, z; z fastest) -> its block entity
        str((x * height + y) * length + z): Compound({"block_entity_data": bedrock_entity(e)})
        for e in block_entities(blocks, indices, palette, seed) for y, z, x in [e.position]})
    order = indices.transpose(2, 0, 1)  # (x, y, z): z fastest in C order
    entries = [Compound({"name": String(name), "states": Compound(tags), "version": Int(BLOCK_VERSION)})
               for name, tags in states]
    layers = List[List[Int]]([
        _IntList(order),
        _IntList(fill=-1, count=order.size),
    ])
    root = Compound({
        "format_version": Int(1),
        "size": List[Int]([Int(width), Int(height), Int(length)]),
        "structure": Compound({
            "block_indices": layers,
            "entities": List[Compound](),
            "palette": Compound({
                "default": Compound({
                    "block_palette": List[Compound](entries),
                    "block_position_data": positions,
                }),
            }),
        }),
        "structure_world_origin": List[Int]([Int(0), Int(0), Int(0)]),
    })
    parts = _Parts()
    nbtlib.File(root, root_name="").write(parts, byteorder="little")
    return parts.close()


check_size = size_limits(".mcstructure", max_blocks=MAX_BLOCKS)


register_writer("mcstructure", write_mcstructure, check_size,
                prepare_theme=checked_theme, hint=partial(placement_hint, format_name="mcstructure"))
