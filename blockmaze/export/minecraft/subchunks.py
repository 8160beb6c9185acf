"""A Bedrock sub-chunk record read into its storage layers and written back (format 9), for
editing a world's sub-chunks in place (``--into`` a Bedrock world).

A record (Minecraft Wiki, "Bedrock Edition level format"; docs/minecraft.md §6.3): its format
byte (1, 8 or 9), then for 8 and 9 the number of storage layers and for 9 the sub-chunk's y
(``int8``); each layer a byte ``bits << 1`` (the low bit 0: a palette of block states), the
4096 indices packed into little-endian 32-bit words (``32 // bits`` a word, lowest bits first;
x, then z, then y fastest), the palette's size (``int32``) and its entries, little-endian NBT
compounds one after another. A layer of ``bits`` 0 has no words and no size: one entry. Layer 0
holds the blocks, layer 1 what stands in them (the water of a waterlogged block).

A layer here is its indices (4096, in the record's x, z, y order) and its entries as the bytes
they were, so an entry is written back byte for byte, and the entries' names.

>>> air = _entry("minecraft:air", ())
>>> record = write_subchunk(-4, [Layer(np.zeros(4096, np.uint32), [air], ["minecraft:air"])])
>>> cy, (layer,) = read_subchunk(record, "here")
>>> cy, layer.names, int(layer.indices.max())
(-4, ['minecraft:air'], 0)
"""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass
from functools import lru_cache

import nbtlib
import numpy as np

from ...errors import BadFileError
from .mcworld import _bits, _entry
from .packing import pack_rows, unpack_longs

__all__ = ["Layer", "read_subchunk", "write_subchunk", "AIR", "_entry"]

AIR = "minecraft:air"


@dataclass
class Layer:
    """One storage layer: ``indices`` (4096 uint32, x, z, y with y fastest) into ``entries``
    (each a palette entry's little-endian NBT bytes), whose block names are ``names``."""

    indices: np.ndarray
    entries: list[bytes]
    names: list[str]


def read_subchunk(value: bytes, where: str) -> tuple[int | None, list[Layer]]:
    """The sub-chunk's y index (None in formats 1 and 8, which do not hold it) and its layers;
    a record blockmaze cannot read is refused in one line naming ``where``."""
    if not value or value[0] not in (1, 8, 9):
        raise BadFileError(f"{where}: a sub-chunk of format {value[:1].hex() or 'nothing'}; "
                           "blockmaze edits formats 1, 8 and 9 (open the world in Minecraft "
                           "1.2.13 or later once)")
    if value[0] == 1:
        count, cy, at = 1, None, 1
    elif value[0] == 8:
        count, cy, at = value[1] if len(value) > 1 else 0, None, 2
    else:
        if len(value) < 3:
            raise BadFileError(f"{where}: a sub-chunk shorter than its header")
        count, cy, at = value[1], struct.unpack("b", value[2:3])[0], 3
    layers = []
    for _ in range(count):
        layer, at = _layer(value, at, where)
        layers.append(layer)
    return cy, layers


def _layer(value: bytes, at: int, where: str) -> tuple[Layer, int]:
    """One storage layer of ``value`` from ``at``, and where the next begins."""
    if at >= len(value):
        raise BadFileError(f"{where}: a sub-chunk shorter than its storage layers")
    if value[at] & 1:
        raise BadFileError(f"{where}: a sub-chunk of runtime ids (a network form, not a save's)")
    bits = value[at] >> 1
    at += 1
    if bits == 0:
        indices, count = np.zeros(4096, np.uint32), 1
    elif bits in (1, 2, 3, 4, 5, 6, 8, 16):
        words = -(-4096 // (32 // bits))
        if len(value) < at + 4 * words + 4:
            raise BadFileError(f"{where}: a sub-chunk shorter than its indices")
        indices = unpack_longs(np.frombuffer(value, "<u4", words, at), bits, 4096,
                               word=32).astype(np.uint32)
        at += 4 * words
        count = struct.unpack("<i", value[at:at + 4])[0]
        at += 4
    else:
        raise BadFileError(f"{where}: a sub-chunk with {bits}-bit indices")
    if not 0 < count <= 4096 or int(indices.max()) >= count:
        raise BadFileError(f"{where}: a sub-chunk's palette of {count} entries does not cover "
                           "its indices")
    try:
        entries, names, size = _entries(value[at:], count)
    except ValueError as error:
        raise BadFileError(f"{where}: {error}") from None
    return Layer(indices, list(entries), list(names)), at + size


@lru_cache(maxsize=1024)
def _entries(data: bytes, count: int) -> tuple[tuple[bytes, ...], tuple[str, ...], int]:
    """The first ``count`` palette entries of ``data`` (each its bytes), their names and the
    bytes they take: remembered, as neighbouring sub-chunks often share their palette."""
    stream = io.BytesIO(data)
    entries, names = [], []
    for _ in range(count):
        start = stream.tell()
        try:
            entry = nbtlib.File.parse(stream, byteorder="little")
            names.append(str(entry["name"]))
        except Exception as error:  # nbtlib raises plain exceptions on broken input
            raise ValueError(f"a sub-chunk's palette is not little-endian NBT "
                             f"({type(error).__name__}: {error})") from None
        entries.append(data[start:stream.tell()])
    return tuple(entries), tuple(names), stream.tell()


def write_subchunk(cy: int, layers: list[Layer]) -> bytes:
    """The format-9 record of ``layers`` at sub-chunk y index ``cy``; each layer's entries
    written as they are, only those its indices use, in the order they first appear in
    ``entries`` (their bytes equal: one entry)."""
    out = [bytes((9, len(layers), cy & 0xFF))]
    for layer in layers:
        firsts: dict[bytes, int] = {}
        local = np.array([firsts.setdefault(entry, len(firsts)) for entry in layer.entries],
                         dtype=np.uint32)
        merged = local[layer.indices]
        used = np.unique(merged)
        renumber = np.zeros(len(firsts), dtype=np.uint32)
        renumber[used] = np.arange(len(used), dtype=np.uint32)
        values = renumber[merged]
        unique = list(firsts)
        bits = _bits(len(used))
        words = pack_rows(values.reshape(1, -1).astype(np.int64), bits, word=32)[0]
        out.append(bytes((bits << 1,)) + words.astype("<u4").tobytes()
                   + struct.pack("<i", len(used)) + b"".join(unique[int(u)] for u in used))
    return b"".join(out)
