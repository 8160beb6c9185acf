"""Luanti (formerly Minetest) schematic ``.mts``, version 4, in minetest_game's nodes.

Layout (big-endian; facts and sources in ``docs/voxels.md``): ``"MTSM"``, u16 version 4, u16
size x, y, z; one probability byte per y layer (127: always); u16 count of node names, each a
u16 length and the name; then zlib-compressed, for every node in z, y, x order (x fastest): the
u16 name index (param0), then every node's probability (param1: 127 always placed, 0 never),
then every node's param2 (facing).

Each block's Java state (from the theme, through :func:`~.minecraft.palette.minecraft_palette`,
so stairs and doors are oriented exactly as in every Minecraft output) is looked up in
``data/luanti_nodes.json``: stairs and gates get a facedir ``param2`` from their ``facing``
(north 0, east 1, south 2, west 3), a door's lower half is ``<door>_a`` and its upper half
``doors:hidden``, both with the door's facedir, ladders a wallmounted ``param2``.

Axes: Luanti's z points north, ours south, so schematic node ``(x, y, L-1-z)`` holds block
``[y, z, x]``. Open blocks are ``air`` where the maze is, and ``ignore`` (never placed, so the
world there stays as it is) in columns with no block at all: the corners a round maze leaves
out, masked cells (with ``keep_terrain``, every open block). ``minetest.place_schematic`` with
``force_placement = true`` makes the maze's air replace whatever stands there; without it only
air and ignore are replaced.

Example
-------
>>> import io
>>> from blockmaze.materials import load_theme
>>> out = io.BytesIO()
>>> write_mts(np.ones((1, 1, 2), np.uint8), out, load_theme())
>>> out.getvalue()[:12]
b'MTSM\\x00\\x04\\x00\\x02\\x00\\x01\\x00\\x01'
"""

from __future__ import annotations

import json
import struct
import zlib
from functools import cache
from importlib import resources
from typing import BinaryIO

import numpy as np

from ...errors import BlockmazeError
from ...materials import Theme
from .. import register_writer, size_limits
from ..minecraft.blockdata import checked_theme  # (its states exist in some release)

VERSION = 4
ALWAYS = 127  # param1 / layer probability: always placed
FACEDIR: dict[str | None, int] = {"north": 0, "east": 1, "south": 2, "west": 3}  # Luanti: z+ is north, x+ east
# wallmounted param2 is the direction of the wall a ladder hangs on; a Java ladder faces away from it
WALLMOUNTED = {"north": 5, "south": 4, "east": 3, "west": 2, None: 4}

check_size = size_limits(".mts", max_side=32767)  # sizes are read as signed 16-bit


@cache
def _table() -> dict:
    text = (resources.files("blockmaze.export.voxels") / "data" / "luanti_nodes.json").read_text("utf-8")
    return json.loads(text)["nodes"]


def luanti_node(state: str) -> tuple[str, int]:
    """The Luanti node name and param2 of a Java block state.

    >>> luanti_node("minecraft:stone_brick_stairs[facing=east,half=bottom]")
    ('stairs:stair_stonebrick', 1)
    >>> luanti_node("minecraft:oak_door[facing=south,half=upper,open=false]")
    ('doors:hidden', 2)
    """
    from ..minecraft.states import parse_state

    name, properties = parse_state(state)
    entry = _table().get(name)
    if entry is None:
        raise BlockmazeError(f"{name} has no Luanti node in blockmaze's table (data/luanti_nodes.json)")
    kind, node = entry.get("kind"), entry["node"]
    facing = properties.get("facing")
    if kind == "door":
        return ("doors:hidden" if properties.get("half") == "upper" else node + "_a"), FACEDIR.get(facing, 0)
    if kind == "gate":
        return node + ("_open" if properties.get("open") == "true" else "_closed"), FACEDIR.get(facing, 0)
    if kind == "facedir":
        return node, FACEDIR.get(facing, 0)
    if kind == "wallmounted":
        return node, WALLMOUNTED[facing]
    if kind == "floor":
        return node, 1  # wallmounted: on the floor
    return node, 0


def outside_columns(blocks: np.ndarray) -> np.ndarray:
    """(z, x) True where a column holds no block at all: outside the maze, left as it is."""
    return ~np.any(blocks, axis=0)


def write_mts(blocks: np.ndarray, file: BinaryIO, theme: Theme, seed: int | None = None,
              keep_terrain: bool = False) -> None:
    """Write a (y, z, x) volume as a Luanti ``.mts`` schematic (see the module docstring).

    ``seed`` draws the theme's weighted variants, as for the Minecraft outputs;
    ``keep_terrain=True`` writes every open block as ``ignore``, so the world's nodes stay there.
    """
    from ..minecraft.palette import translated_palette

    check_size(blocks.shape)
    indices, palette, nodes = translated_palette(blocks, theme, seed, luanti_node,
                                                 "blockmaze cannot write for Luanti: {error}")
    names: list[str] = []
    content = np.zeros(len(palette) + 1, np.uint16)
    param2 = np.zeros(len(palette) + 1, np.uint8)
    for i, (node, p2) in enumerate(nodes):
        if node not in names:
            names.append(node)
        content[i], param2[i] = names.index(node), p2
    ignore = len(palette)  # a palette index of its own for the columns left out
    skipped = [ignore] + ([i for i in range(len(palette)) if names[content[i]] == "air"]
                          if keep_terrain else [])
    outside = outside_columns(blocks)
    if outside.any() or len(skipped) > 1:
        names.append("ignore")
        content[skipped] = len(names) - 1
    probability = np.full(len(palette) + 1, ALWAYS, np.uint8)
    probability[skipped] = 0
    height, length, width = blocks.shape
    order = np.ascontiguousarray(np.where(outside, ignore, indices).transpose(1, 0, 2)[::-1])  # z north
    file.write(b"MTSM" + struct.pack(">H3H", VERSION, width, height, length))
    file.write(bytes([ALWAYS]) * height)
    file.write(struct.pack(">H", len(names)))
    for node in names:
        data = node.encode("ascii")
        file.write(struct.pack(">H", len(data)) + data)
    packer = zlib.compressobj(1)  # the fastest level: 4 bytes a node, mostly runs
    for table in (content.astype(">u2"), probability, param2):
        for z in range(0, length, 64):  # in slabs: bounded memory for large mazes
            file.write(packer.compress(table[order[z:z + 64]].tobytes()))
    file.write(packer.flush())


register_writer("mts", write_mts, check_size, prepare_theme=checked_theme)
