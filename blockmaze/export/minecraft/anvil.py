"""Anvil chunks and region files (Java 1.18+), written straight to bytes for speed.

A world of a 5000x5000 maze has about 400 000 chunks: building each through an NBT library
costs more than everything else together, so chunk NBT is assembled here from cached byte
pieces (block-state compounds, empty sections) and one numba kernel that finds every
section's palette and packs its indices.

Facts relied on (docs/minecraft.md §6, the Minecraft Wiki's "Chunk format"
and "Region file format" pages, the decompiled 1.20.5-1.21 ``ChunkSerializer`` -- read for
facts, in extremeheat/extracted_minecraft_data -- and anvil-parser2's reader, which the tests use):

* A region file ``r.<rx>.<rz>.mca`` holds 32x32 chunks: an 8 KiB header of 1024 big-endian
  u32 locations (``sector_offset << 8 | sector_count``, 0 = absent; slot
  ``(cx & 31) + (cz & 31) * 32``) and 1024 u32 timestamps, then 4 KiB sectors. A chunk record
  is a u32 length (payload + 1), a compression byte (2 = zlib) and the payload, padded to whole
  sectors; a record needs fewer than 256 sectors (bigger ones go to ``.mcc`` files, never
  needed here).
* A chunk (1.18+, no ``Level`` wrapper) is an unnamed compound: ``DataVersion``, ``xPos``,
  ``zPos``, ``yPos`` (-4: the overworld's lowest section), ``Status`` (``minecraft:full``: a
  finished chunk the game never generates again; the game parses it as a resource location,
  so ``full`` reads the same), ``LastUpdate``, ``InhabitedTime``, ``sections``,
  ``block_entities``, ``Heightmaps``, ``block_ticks``, ``fluid_ticks``, ``PostProcessing``,
  ``structures`` {``References``, ``starts``} and ``isLightOn``.
* A section: ``Y`` (byte), ``block_states`` {``palette``: a list of {``Name``,
  ``Properties``}, ``data``: longs} and ``biomes`` {``palette``: a list of biome names,
  ``data``}. Blocks are indexed ``y*256 + z*16 + x``; with one palette entry ``data`` is left
  out; otherwise each index takes ``max(4, bit_length(len(palette) - 1))`` bits, packed without
  spanning (:mod:`.packing`). One biome per section: a one-entry palette and no data. A section
  missing from the list is made empty by the game (all air, plains), so only void worlds, whose
  biome is not plains, list their empty sections.
* ``isLightOn`` 0: the game marks the chunk's light as not correct (``setLightCorrect(false)``) and
  computes block and sky light itself, so no light arrays are written (a wrong ``1`` would leave
  dark patches).
* Heightmaps: ``WORLD_SURFACE`` is written (one more than the highest non-air block of each
  column, counted from y = -64; 0 for an empty column; 256 values of 9 bits). The game computes
  every heightmap a full chunk lacks when it loads it (``Heightmap.primeHeightmaps`` over the
  types missing from ``Heightmaps``), so the ones that depend on block physics
  (``MOTION_BLOCKING``...) are left to it.
* Timestamps are 0, so the same maze gives the same bytes.
* zlib level 1: a maze chunk compresses to well under one 4 KiB sector at any level, and level 1
  is 2.4x faster than the default 6 (30 against 73 us a chunk), so the files are as large.
"""

from __future__ import annotations

import struct
import zlib
from typing import BinaryIO

from ...support.kernels import kernel
import numpy as np

from .packing import long_count, pack_into
from .palette import block_state_tag

MIN_Y = -64  # the overworld's lowest block, 1.18+
MAX_Y = 319
SECTIONS = range(-4, 20)
SECTOR = 4096
HEIGHTMAP_BITS = 9
ZLIB = 2

# NBT tag ids
END, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, BYTE_ARRAY, STRING, LIST, COMPOUND, INT_ARRAY, LONG_ARRAY = range(13)


def _name(tag: int, name: str) -> bytes:
    raw = name.encode("utf-8")
    return bytes((tag,)) + struct.pack(">H", len(raw)) + raw


def _string(value: str) -> bytes:
    raw = value.encode("utf-8")
    return struct.pack(">H", len(raw)) + raw


def nbt_int(name: str, value: int) -> bytes:
    """A named Int tag.

    >>> nbt_int("Y", 1).hex()
    '0300015900000001'
    """
    return _name(INT, name) + struct.pack(">i", value)


def nbt_byte(name: str, value: int) -> bytes:
    return _name(BYTE, name) + struct.pack(">b", value)


def nbt_long(name: str, value: int) -> bytes:
    return _name(LONG, name) + struct.pack(">q", value)


def nbt_string(name: str, value: str) -> bytes:
    return _name(STRING, name) + _string(value)


def nbt_list(name: str, tag: int, payloads: list[bytes]) -> bytes:
    """A named List of ``tag`` items, each given as its payload bytes (an empty list is typed END)."""
    return _name(LIST, name) + bytes((tag if payloads else END,)) + struct.pack(">i", len(payloads)) + b"".join(payloads)


def nbt_compound(name: str, *entries: bytes) -> bytes:
    return _name(COMPOUND, name) + b"".join(entries) + bytes((END,))


def state_payload(state: str) -> bytes:
    """The compound payload (entries and END) of a palette entry ``{Name, Properties}``.

    >>> state_payload("minecraft:stone")[-1]
    0
    """
    tag = block_state_tag(state)
    out = [nbt_string("Name", str(tag["Name"]))]
    if "Properties" in tag:
        out.append(nbt_compound("Properties", *(nbt_string(k, str(v)) for k, v in tag["Properties"].items())))
    return b"".join(out) + bytes((END,))


def block_bits(palette_size: int) -> int:
    """Bits per block index in a section: none for one entry, else at least 4.

    >>> block_bits(1), block_bits(2), block_bits(16), block_bits(17)
    (0, 4, 4, 5)
    """
    return 0 if palette_size <= 1 else max(4, (palette_size - 1).bit_length())


def encode_sections(ids: np.ndarray, air: int):
    """Palettes and packed data of every 16x16x16 section of ``ids`` (global state ids, axes y, z, x;
    every side a multiple of 16, z exactly 16).

    Returns ``(sizes, palettes, data, lengths)`` per section (chunk-major, then y): the palette
    size, the global ids of the palette (first appearance order), the packed longs and how many
    of them there are. Rows are as wide as the most states and longs a section can need here.

    >>> sizes, palettes, data, lengths = encode_sections(np.ones((16, 16, 16), np.uint16), 0)
    >>> sizes.tolist(), palettes[0, :1].tolist(), lengths.tolist()
    ([1], [1], [0])
    """
    states = max(int(ids.max()), air) + 1
    cap = min(4096, states)
    return _encode_sections(ids, air, states, cap, long_count(4096, max(4, block_bits(cap))))


@kernel
def _encode_sections(ids, air, states, cap, longs):
    height, length, width = ids.shape
    sections, chunks = height // 16, width // 16
    count = chunks * sections
    local = np.full(states, -1, dtype=np.int32)
    sizes = np.zeros(count, dtype=np.int32)
    palettes = np.zeros((count, cap), dtype=np.int32)
    data = np.zeros((count, longs), dtype=np.int64)
    lengths = np.zeros(count, dtype=np.int32)
    values = np.empty(4096, dtype=np.int64)
    for cx in range(chunks):
        for s in range(sections):
            k = cx * sections + s
            n = 0
            i = 0
            for y in range(16):
                for z in range(16):
                    for x in range(16):
                        g = ids[s * 16 + y, z, cx * 16 + x]
                        if local[g] < 0:
                            local[g] = n
                            palettes[k, n] = g
                            n += 1
                        values[i] = local[g]
                        i += 1
            for j in range(n):
                local[palettes[k, j]] = -1
            sizes[k] = n
            if n > 1:
                bits = 4
                while (1 << bits) < n:
                    bits += 1
                per = 64 // bits
                lengths[k] = (4096 + per - 1) // per
                pack_into(values, bits, data[k])
    return sizes, palettes, data, lengths


@kernel
def surface_heights(ids, air, base):
    """``WORLD_SURFACE`` per column of ``ids`` (y, z, x): one above the highest non-air block,
    counted from the world's bottom (``base`` is the world y of ``ids[0]`` minus MIN_Y)."""
    height, length, width = ids.shape
    out = np.zeros((length, width), dtype=np.int64)
    for z in range(length):
        for x in range(width):
            for y in range(height - 1, -1, -1):
                if ids[y, z, x] != air:
                    out[z, x] = base + y + 1
                    break
    return out


@kernel
def heightmap_longs(heights):
    """The 37 longs of 9-bit values of each 16x16 heightmap along a row of chunks: ``heights`` is
    (16, 16 * chunks) (z, x); returns (chunks, 37)."""
    chunks = heights.shape[1] // 16
    out = np.zeros((chunks, 37), dtype=np.int64)
    values = np.empty(256, dtype=np.int64)
    for cx in range(chunks):
        for z in range(16):
            for x in range(16):
                values[z * 16 + x] = heights[z, cx * 16 + x]
        pack_into(values, HEIGHTMAP_BITS, out[cx])
    return out


_Y = _name(BYTE, "Y")
_BLOCK_STATES = _name(COMPOUND, "block_states")
_PALETTE = _name(LIST, "palette") + bytes((COMPOUND,))
_DATA = _name(LONG_ARRAY, "data")
_SECTIONS = _name(LIST, "sections") + bytes((COMPOUND,))
_HEIGHTMAPS = _name(COMPOUND, "Heightmaps") + _name(LONG_ARRAY, "WORLD_SURFACE") + struct.pack(">i", 37)
_END = bytes((END,))


class ChunkBuilder:
    """Chunk NBT for one world: fixed parts cached once, a row of chunks assembled per band.

    Global ids index ``states`` (block-state strings, added by :meth:`id_of`); ``biome`` is the
    biome of every section. Sections that are all air are written only when ``empty_sections``
    (the game makes missing ones empty, in plains: needed for other biomes).
    """

    def __init__(self, data_version: int, biome: str, empty_sections: bool = True):
        self.data_version = data_version
        self.biome_bytes = nbt_compound("biomes", nbt_list("palette", STRING, [_string(biome)]))
        self.empty_sections = empty_sections
        self.states: list[str] = []
        self.payloads: list[bytes] = []
        self.index: dict[str, int] = {}
        self.air = self.id_of("minecraft:air")
        self.empty = {y: self.section(y, [self.air], None) for y in SECTIONS}
        self.no_entities = nbt_list("block_entities", COMPOUND, [])
        self.tail = b"".join((
            nbt_list("block_ticks", COMPOUND, []),
            nbt_list("fluid_ticks", COMPOUND, []),
            nbt_list("PostProcessing", LIST, []),
            nbt_compound("structures", nbt_compound("References"), nbt_compound("starts")),
            nbt_byte("isLightOn", 0),
            nbt_long("LastUpdate", 0),
            nbt_long("InhabitedTime", 0),
            nbt_string("Status", "minecraft:full"),
            nbt_int("yPos", SECTIONS[0]),
            nbt_int("DataVersion", data_version),
            _END,
        ))

    def id_of(self, state: str) -> int:
        """The global id of a block state, added on first sight."""
        found = self.index.get(state)
        if found is None:
            found = self.index[state] = len(self.states)
            self.states.append(state)
            self.payloads.append(state_payload(state))
        return found

    def section(self, y: int, palette, longs: bytes | None) -> bytes:
        """One section's compound payload: Y, block_states (palette of global ids, packed
        big-endian longs), biomes."""
        parts = [_Y, struct.pack(">b", y), _BLOCK_STATES, _PALETTE, struct.pack(">i", len(palette))]
        parts.extend(self.payloads[g] for g in palette)
        if longs is not None:
            parts += [_DATA, struct.pack(">i", len(longs) // 8), longs]
        parts += [_END, self.biome_bytes, _END]
        return b"".join(parts)

    def row(self, ids: np.ndarray, cz: int, entities: dict[int, list[bytes]] | None = None):
        """Yield ``(cx, chunk NBT bytes)`` for a row of chunks: ``ids`` (y, 16, x) holds global ids
        from y = -64 up to a section boundary, its width a multiple of 16; ``entities`` maps a
        chunk's cx to its block entities (compound payloads, world coordinates inside)."""
        air = self.air
        sizes, palettes, data, lengths = encode_sections(ids, air)
        data = data.astype(">i8")
        heights = heightmap_longs(surface_heights(ids, air, 0)).astype(">i8")
        count = ids.shape[0] // 16
        head = b"\x0a\x00\x00"
        for cx in range(ids.shape[2] // 16):
            parts = []
            for s in range(count):
                k = cx * count + s
                size = sizes[k]
                if size == 1 and palettes[k, 0] == air:
                    if self.empty_sections:
                        parts.append(self.empty[SECTIONS[s]])
                    continue
                parts.append(self.section(SECTIONS[s], palettes[k, :size],
                                          data[k, :lengths[k]].tobytes() if size > 1 else None))
            if self.empty_sections:
                parts.extend(self.empty[y] for y in SECTIONS[count:])
            yield cx, b"".join((
                head, nbt_int("xPos", cx), nbt_int("zPos", cz),
                _SECTIONS, struct.pack(">i", len(parts)), *parts,
                _HEIGHTMAPS, heights[cx].tobytes(), _END,
                nbt_list("block_entities", COMPOUND, entities[cx])
                if entities and cx in entities else self.no_entities,
                self.tail,
            ))


class RegionWriter:
    """Writes chunk records into region files as they come, headers filled in at the end.

    Example
    -------
    >>> import io
    >>> out = io.BytesIO()
    >>> region = RegionWriter(out)
    >>> region.add(3, 0, b"\\x0a\\x00\\x00\\x00")
    >>> region.close()
    >>> len(out.getvalue()), out.getvalue()[12:16].hex()   # slot 3: sector 2, 1 sector
    (12288, '00000201')
    """

    def __init__(self, file: BinaryIO, level: int = 1):
        self.file = file
        self.level = level
        self.locations = np.zeros(1024, dtype=">u4")
        self.file.seek(0)
        self.file.write(bytes(2 * SECTOR))
        self.sector = 2

    def add(self, cx: int, cz: int, nbt: bytes) -> None:
        """Compress one chunk's NBT and append its record."""
        self.add_compressed(cx, cz, zlib.compress(nbt, self.level))

    def add_compressed(self, cx: int, cz: int, payload: bytes) -> None:
        """Append one chunk's record from its NBT compressed already (``zlib.compress(nbt, level)``,
        perhaps on another thread)."""
        size = len(payload) + 5
        sectors = -(-size // SECTOR)
        if sectors > 255:
            raise ValueError(f"chunk {cx},{cz} takes {sectors} sectors; a region record holds 255")
        self.file.write(struct.pack(">IB", len(payload) + 1, ZLIB) + payload + bytes(sectors * SECTOR - size))
        self.locations[(cx & 31) + (cz & 31) * 32] = self.sector << 8 | sectors
        self.sector += sectors

    def close(self) -> None:
        """Write the header (locations; timestamps stay 0)."""
        self.file.seek(0)
        self.file.write(self.locations.tobytes())
        self.file.seek(0, 2)
