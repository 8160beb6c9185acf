"""A prefab's blocks read from a Sponge schematic (v2, v3), a structure file (.nbt) or a
one-region Litematica file, in bounded memory: the streaming reader of :mod:`.nbtread` with
small limits (``MAX_PREFAB_BLOCKS`` blocks, ``MAX_PREFAB_SIDE`` a side, ``MAX_PREFAB_BYTES``
inflated), every length and index checked, anything else refused in one line.

Block entities (a chest's contents, a sign's text) and entities are not read: the blocks are.
A structure file's positions it lists no block for (structure voids) are air.

Example
-------
>>> import io, blockmaze as bm
>>> out = io.BytesIO()
>>> bm.write(bm.extrude(bm.to_blocks(bm.generate((1, 2), rng=1)), height=1), out, format="schem")
>>> prefab = read_prefab_bytes(out.getvalue(), "tiny.schem")
>>> prefab.shape, sorted(set(prefab.palette))
((2, 3, 5), ['minecraft:air', 'minecraft:smooth_stone', 'minecraft:stone_bricks'])
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np

from ..blocks.prefab import Prefab
from ..errors import BadFileError
from .base import need
from .minecraft import _list_ints, _palette_indices, _state_name
from .nbtread import GZIP_MAGIC, NbtError, read_nbt_stream

MAX_PREFAB_BLOCKS = 1 << 18  # 64 x 64 x 64: far more than a maze's centre holds
MAX_PREFAB_SIDE = 512
MAX_PREFAB_BYTES = 1 << 25  # inflated: a prefab of MAX_PREFAB_BLOCKS listed block by block
MAX_PALETTE = 4096  # entries a palette may list (fewer are used: see blocks.prefab)


def read_prefab(path: str | os.PathLike, what: str = "prefab") -> Prefab:
    """The prefab in the file ``path`` (see the module docstring); BadFileError else, naming
    the file as ``what`` (a prefab, the ground a maze follows)."""
    from ..support.files import read_regular

    return read_prefab_bytes(read_regular(path, what, MAX_PREFAB_BYTES), Path(path).name, what)


def read_prefab_bytes(data: bytes, name: str = "prefab", what: str = "prefab") -> Prefab:
    """The prefab in ``data``, a file's bytes (``what`` and ``name`` for messages)."""
    states, palette = read_states(data, name, what)
    return Prefab(states, tuple(palette), name)


def read_states(data: bytes, name: str, what: str, blocks: int = MAX_PREFAB_BLOCKS,
                inflated: int = MAX_PREFAB_BYTES) -> tuple[np.ndarray, list[str]]:
    """The ``(y, z, x)`` palette indices and the palette of the .schem, .nbt or .litematic in
    ``data``, refused past ``blocks`` blocks (``MAX_PREFAB_SIDE`` a side) or ``inflated`` bytes."""
    try:
        if data[:2] != GZIP_MAGIC:
            raise BadFileError("not gzipped, as a .schem, .nbt or .litematic is")
        root_name, root = read_nbt_stream(io.BytesIO(data), limit=inflated, whole=blocks)
        if "Regions" in root:
            return _litematic(root, blocks)
        if root_name == "Schematic" and root.get("Version") == 2:
            return _sponge(root, root, blocks)
        if isinstance(root.get("Schematic"), dict) and root["Schematic"].get("Version") == 3:
            body = root["Schematic"]
            return _sponge(body, need(body, "Blocks", dict, "Schematic."), blocks)
        if "blocks" in root and ("palette" in root or "palettes" in root):
            return _structure(root, blocks)
        raise BadFileError("NBT, but not a Sponge schematic, structure or Litematica file")
    except (NbtError, BadFileError) as error:
        raise BadFileError(f"{what} {name}: {error}") from None


def _size(x: object, y: object, z: object, blocks: int) -> tuple[int, int, int]:
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (x, y, z)):
        raise BadFileError("its size must be three Ints")
    size = (abs(int(y)), abs(int(z)), abs(int(x)))  # type: ignore[call-overload]
    if min(size) < 1:
        raise BadFileError("it is empty: every side needs a block")
    side = max(MAX_PREFAB_SIDE, int(blocks ** 0.5))
    if max(size) > side or size[0] * size[1] * size[2] > blocks:
        raise BadFileError(f"{size[2]}x{size[0]}x{size[1]} blocks (width x height x length) is "
                           f"more than is read: {blocks} blocks, {side} a side")
    return size


def _palette_list(entries: object, where: str) -> list[str]:
    if not isinstance(entries, list):
        raise BadFileError(f"{where} must be a list of block states")
    if len(entries) > MAX_PALETTE:
        raise BadFileError(f"{where} lists {len(entries)} block states, more than {MAX_PALETTE}")
    return [_state_name(entry) for entry in entries]


def _sponge(body: dict, blocks: dict, most: int) -> tuple[np.ndarray, list[str]]:
    width, height, length = (need(body, key, int) & 0xFFFF for key in ("Width", "Height", "Length"))
    shape = _size(width, height, length, most)
    palette = need(blocks, "Palette", dict)
    if not palette or len(palette) > MAX_PALETTE:
        raise BadFileError(f"its palette must list 1 to {MAX_PALETTE} block states")
    _palette_indices(palette)
    names = sorted(palette, key=palette.__getitem__)
    data = blocks.get("BlockData", blocks.get("Data"))
    if not isinstance(data, np.ndarray) or data.dtype.itemsize != 1:
        raise BadFileError("its block data must be a ByteArray (of a size a prefab may have)")
    values = _varints(data.view(np.uint8))
    if values.size != shape[0] * shape[1] * shape[2]:
        raise BadFileError(f"its block data holds {values.size} blocks; its size holds "
                           f"{shape[0] * shape[1] * shape[2]}")
    if values.size and int(values.max()) >= len(names):
        raise BadFileError("a block's index is outside the palette")
    return values.reshape(shape).astype(np.uint16), names


def _varints(data: np.ndarray) -> np.ndarray:
    """The unsigned varints of ``data`` (at most 3 bytes each: palettes are short).

    >>> _varints(np.array([5, 0x80, 0x01], np.uint8)).tolist()
    [5, 128]
    """
    ends = data < 0x80
    if data.size and not ends[-1]:
        raise BadFileError("its block data ends inside a varint")
    group = np.concatenate([[0], np.cumsum(ends)[:-1]]).astype(np.int64)
    firsts = np.flatnonzero(np.concatenate([[True], ends[:-1]]))
    place = np.arange(data.size) - firsts[group]
    if data.size and place.max() > 2:
        raise BadFileError("its block data holds a varint longer than a palette index")
    parts = (data.astype(np.int64) & 0x7F) << (7 * place)
    return np.bincount(group, weights=parts, minlength=int(ends.sum())).astype(np.int64)


def _structure(root: dict, most: int) -> tuple[np.ndarray, list[str]]:
    x, y, z = _list_ints(need(root, "size", (list, np.ndarray)), "size")
    shape = _size(x, y, z, most)
    if "palette" in root:
        palette = _palette_list(root["palette"], "palette")
    else:
        palettes = need(root, "palettes", list)
        if not palettes:
            raise BadFileError("palettes is empty")
        palette = _palette_list(palettes[0], "palettes[0]")
    blocks = need(root, "blocks", list)
    if len(blocks) > shape[0] * shape[1] * shape[2]:
        raise BadFileError("it lists more blocks than its size holds")
    palette = [*palette, "minecraft:air"]  # (the last: where no block is listed)
    states = np.full(shape, len(palette) - 1, np.uint16)
    for block in blocks:
        state = need(block, "state", int, "blocks[].")
        if not 0 <= state < len(palette) - 1:
            raise BadFileError("a block's state is outside the palette")
        bx, by, bz = _list_ints(need(block, "pos", (list, np.ndarray), "blocks[]."), "blocks[].pos")
        if not (0 <= by < shape[0] and 0 <= bz < shape[1] and 0 <= bx < shape[2]):
            raise BadFileError("a block's pos is outside its size")
        states[by, bz, bx] = state
    return states, palette


def _litematic(root: dict, most: int) -> tuple[np.ndarray, list[str]]:
    regions = need(root, "Regions", dict)
    if len(regions) != 1:
        raise BadFileError(f"it has {len(regions)} regions; a prefab is one region")
    (region,) = regions.values()
    raw = need(region, "Size", dict, "Region.")
    x, y, z = (need(raw, axis, int, "Region.Size.") for axis in "xyz")
    shape = _size(x, y, z, most)
    palette = _palette_list(need(region, "BlockStatePalette", list, "Region."), "BlockStatePalette")
    longs = need(region, "BlockStates", np.ndarray, "Region.")
    bits = max(2, (len(palette) - 1).bit_length())
    count = shape[0] * shape[1] * shape[2]
    if longs.dtype.itemsize != 8 or longs.size != -(-count * bits // 64):
        raise BadFileError(f"BlockStates must be {-(-count * bits // 64)} longs for {count} blocks")
    stream = np.unpackbits(longs.astype("<i8").view(np.uint8), bitorder="little")
    values = stream[:count * bits].reshape(count, bits).astype(np.int64) @ (1 << np.arange(bits))
    if values.size and int(values.max()) >= len(palette):
        raise BadFileError("a block's index is outside the palette")
    return values.reshape(shape).astype(np.uint16), palette


__all__ = ["MAX_PREFAB_BLOCKS", "MAX_PREFAB_BYTES", "MAX_PREFAB_SIDE", "read_prefab",
           "read_prefab_bytes", "read_states"]
