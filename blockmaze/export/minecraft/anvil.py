"""Anvil chunks and region files (Java 1.18+), written straight to bytes for speed.

A world of a 5000x5000 maze has about 400 000 chunks: building each through an NBT library
costs more than everything else together, so a row of chunks' NBT is assembled here in one
pass (:func:`_assemble_row`) from fixed byte pieces, the block states' palette entries and
each section's palette and packed indices (:func:`encode_sections`).

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
* A chunk record's payload is a zlib stream (compression 2). A stream of stored deflate blocks
  (zlib level 0) is one as much as a compressed one: every zlib reader inflates it (the game's
  ``InflaterInputStream``, Python's ``zlib``, Node's ``zlib``). Records take whole 4 KiB sectors,
  so a chunk whose stored stream fits one sector is stored: compressing it would leave the file
  the same size and cost 40 us a chunk (zlib level 1, measured on a 2000x2000 maze's 3 KB
  chunks), seven tenths of a world's writing time. Bigger chunks (a tall maze, a void world's
  listed empty sections) are compressed at level 1, 2.4x faster than the default 6 and as small
  in sectors (see :func:`chunk_payload`).
"""

from __future__ import annotations

import struct
import zlib
from typing import BinaryIO

from ...support.kernels import COMPILED, SMALL_JOB, compiled_pays, kernel
import numpy as np

from .packing import long_count, pack_into, pack_rows
from .palette import block_state_tag

MIN_Y = -64  # the overworld's lowest block, 1.18+
MAX_Y = 319
FIRST_SECTION = -4  # the overworld's sections, y = -64 to 319
SECTION_COUNT = 24
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
    longs = long_count(4096, max(4, block_bits(cap)))
    if compiled_pays(ids.size, SMALL_JOB):
        return _encode_sections(ids, air, states, cap, longs)
    return _encode_sections_numpy(ids, cap, longs)


def _encode_sections_numpy(ids: np.ndarray, cap: int, longs: int):
    """:func:`encode_sections` with numpy alone, for jobs too small to load numba: the same arrays."""
    height, _, width = ids.shape
    sections, chunks = height // 16, width // 16
    count = chunks * sections
    rows = ids.reshape(sections, 16, 16, chunks, 16).transpose(3, 0, 1, 2, 4).reshape(count, 4096)
    keys = np.arange(count, dtype=np.int64)[:, None] * (int(ids.max()) + 1) + rows
    order = np.argsort(keys, axis=None, kind="stable")  # by section and state, then position
    ordered = keys.reshape(-1)[order]
    first = np.ones(ordered.size, dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    section, position = np.divmod(order[first], 4096)  # each distinct state: where it first appears
    state = rows.reshape(-1)[order[first]]
    by_appearance = np.lexsort((position, section))  # section, then position
    sizes = np.bincount(section, minlength=count).astype(np.int32)
    starts = np.zeros(count + 1, dtype=np.int64)
    np.cumsum(sizes, out=starts[1:])
    rank = np.empty(section.size, dtype=np.int64)
    rank[by_appearance] = np.arange(section.size) - starts[section[by_appearance]]
    palettes = np.zeros((count, cap), dtype=np.int32)
    palettes[section, rank] = state
    values = np.empty(rows.size, dtype=np.int64)
    values[order] = rank[np.cumsum(first) - 1]  # each block's index in its section's palette
    values = values.reshape(count, 4096)
    data = np.zeros((count, longs), dtype=np.int64)
    lengths = np.zeros(count, dtype=np.int32)
    bits = np.array([block_bits(int(n)) for n in sizes])
    for width_bits in np.unique(bits[bits > 0]).tolist():
        chosen = np.flatnonzero(bits == width_bits)
        packed = pack_rows(values[chosen], width_bits)
        data[chosen, :packed.shape[1]] = packed
        lengths[chosen] = packed.shape[1]
    return sizes, palettes, data, lengths


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


def surface_heights(ids: np.ndarray, air: int, base: int) -> np.ndarray:
    """``WORLD_SURFACE`` per column of ``ids`` (y, z, x): one above the highest non-air block,
    counted from the world's bottom (``base`` is the world y of ``ids[0]`` minus MIN_Y); 0 for a
    column of air. Compiled for big jobs, numpy for small ones.

    >>> surface_heights(np.array([[[1, 0]], [[1, 0]]], np.uint16), 0, 4).tolist()
    [[6, 0]]
    """
    if compiled_pays(ids.size, SMALL_JOB):
        return _surface_heights(ids, air, base)
    solid = ids != air
    top = ids.shape[0] - np.argmax(solid[::-1], axis=0)
    return np.where(solid.any(axis=0), base + top, 0).astype(np.int64)


@kernel
def _surface_heights(ids, air, base):
    height, length, width = ids.shape
    out = np.zeros((length, width), dtype=np.int64)
    for z in range(length):
        for x in range(width):
            for y in range(height - 1, -1, -1):
                if ids[y, z, x] != air:
                    out[z, x] = base + y + 1
                    break
    return out


def heightmap_longs(heights: np.ndarray) -> np.ndarray:
    """The 37 longs of 9-bit values of each 16x16 heightmap along a row of chunks: ``heights`` is
    (16, 16 * chunks) (z, x); returns (chunks, 37). Compiled for big jobs, numpy for small ones."""
    if compiled_pays(heights.size, SMALL_JOB):
        return _heightmap_longs(heights)
    chunks = heights.shape[1] // 16
    return pack_rows(heights.reshape(16, chunks, 16).transpose(1, 0, 2).reshape(chunks, 256), HEIGHTMAP_BITS)


@kernel
def _heightmap_longs(heights):
    chunks = heights.shape[1] // 16
    out = np.zeros((chunks, 37), dtype=np.int64)
    values = np.empty(256, dtype=np.int64)
    for cx in range(chunks):
        for z in range(16):
            for x in range(16):
                values[z * 16 + x] = heights[z, cx * 16 + x]
        pack_into(values, HEIGHTMAP_BITS, out[cx])
    return out


class ChunkBuilder:
    """Chunk NBT for one world: fixed parts cached once, a row of chunks assembled per band.

    Global ids index ``states`` (block-state strings, added by :meth:`id_of`); ``biome`` is the
    biome of every section. Sections that are all air are written only when ``empty_sections``
    (the game makes missing ones empty, in plains: needed for other biomes).
    """

    def __init__(self, data_version: int, biome: str, empty_sections: bool = True):
        self.data_version = data_version
        self.empty_sections = empty_sections
        self.states: list[str] = []
        self.payloads: list[bytes] = []
        self.index: dict[str, int] = {}
        self.air = self.id_of("minecraft:air")
        pieces: dict[int, bytes] = {}  # the fixed bytes between the values a chunk's NBT is made of
        pieces[_HEAD_X] = b"\x0a\x00\x00" + _name(INT, "xPos")
        pieces[_Z] = _name(INT, "zPos")
        pieces[_SECTION_LIST] = _name(LIST, "sections") + bytes((COMPOUND,))
        pieces[_SECTION_Y] = _name(BYTE, "Y")
        pieces[_STATES] = _name(COMPOUND, "block_states") + _name(LIST, "palette") + bytes((COMPOUND,))
        pieces[_DATA_LONGS] = _name(LONG_ARRAY, "data")
        pieces[_SECTION_END] = (bytes((END,)) + nbt_compound("biomes", nbt_list("palette", STRING, [_string(biome)]))
                                + bytes((END,)))
        pieces[_HEIGHTS] = (_name(COMPOUND, "Heightmaps") + _name(LONG_ARRAY, "WORLD_SURFACE")
                            + struct.pack(">i", 37))
        pieces[_ENTITY_LIST] = bytes((END,)) + _name(LIST, "block_entities")
        pieces[_TAIL] = b"".join((
            nbt_list("block_ticks", COMPOUND, []),
            nbt_list("fluid_ticks", COMPOUND, []),
            nbt_list("PostProcessing", LIST, []),
            nbt_compound("structures", nbt_compound("References"), nbt_compound("starts")),
            nbt_byte("isLightOn", 0),
            nbt_long("LastUpdate", 0),
            nbt_long("InhabitedTime", 0),
            nbt_string("Status", "minecraft:full"),
            nbt_int("yPos", FIRST_SECTION),
            nbt_int("DataVersion", data_version),
            bytes((END,)),
        ))
        self.pieces, self.piece_starts = end_to_end([pieces[at] for at in range(_TAIL + 1)])

    def id_of(self, state: str) -> int:
        """The global id of a block state, added on first sight."""
        found = self.index.get(state)
        if found is None:
            found = self.index[state] = len(self.states)
            self.states.append(state)
            self.payloads.append(state_payload(state))
        return found

    def row(self, ids: np.ndarray, cz: int, entities: dict[int, list[bytes]] | None = None):
        """Yield ``(cx, chunk NBT bytes)`` for a row of chunks: ``ids`` (y, 16, x) holds global ids
        from y = -64 up to a section boundary, its width a multiple of 16; ``entities`` maps a
        chunk's cx to its block entities (compound payloads, world coordinates inside)."""
        out, ends = self.row_bytes(ids, cz, entities)
        view = memoryview(out)
        for cx in range(ends.size - 1):
            yield cx, bytes(view[ends[cx]:ends[cx + 1]])

    def row_bytes(self, ids: np.ndarray, cz: int, entities: dict[int, list[bytes]] | None = None):
        """The NBT of a row of chunks (see :meth:`row`) in one uint8 array, and the offsets
        where each chunk starts and the last ends: chunk ``cx`` is ``out[ends[cx]:ends[cx + 1]]``.
        One compiled pass (no GIL held) assembles them from the sections' palettes and longs."""
        sizes, palettes, data, lengths = encode_sections(ids, self.air)
        heights = heightmap_longs(surface_heights(ids, self.air, 0)).astype(">i8").view(np.uint8)
        found = [entities.get(cx, []) if entities else [] for cx in range(ids.shape[2] // 16)]
        counts = np.array([len(tags) for tags in found], dtype=np.int64)
        placed, starts = end_to_end([b"".join(tags) for tags in found])
        states, state_starts = end_to_end(list(self.payloads))  # as they are now: another thread may add
        return _assemble_row(self.pieces, self.piece_starts, sizes, palettes,
                             data.astype(">i8").view(np.uint8), lengths, ids.shape[0] // 16,
                             self.air, self.empty_sections, states, state_starts,
                             heights, placed, starts, counts, cz)


def end_to_end(parts: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
    """``parts`` joined in one writable uint8 array, and where each starts (and the last ends).

    >>> joined, starts = end_to_end([b"ab", b"", b"c"])
    >>> bytes(joined), starts.tolist()
    (b'abc', [0, 2, 2, 3])
    """
    starts = np.cumsum([0] + [len(part) for part in parts], dtype=np.int64)
    return np.frombuffer(bytearray(b"".join(parts)), dtype=np.uint8), starts


# The fixed pieces of a chunk, in the order :func:`_assemble_row` writes them; a builder keeps
# them end to end in ``pieces`` (``piece_starts[i]`` to ``piece_starts[i + 1]``).
(_HEAD_X, _Z, _SECTION_LIST, _SECTION_Y, _STATES, _DATA_LONGS, _SECTION_END, _HEIGHTS,
 _ENTITY_LIST, _TAIL) = range(10)


@kernel
def _copy(out, at, write, source, begin, end):
    """Copy ``source[begin:end]`` to ``out`` at ``at`` (when ``write``); return the end."""
    if write:
        if COMPILED:  # a loop: compiled in a fraction of a slice assignment's time
            for i in range(end - begin):
                out[at + i] = source[begin + i]
        else:  # a slice: as Python, a loop would take a step a byte
            out[at:at + end - begin] = source[begin:end]
    return at + end - begin


@kernel
def _big_endian(out, at, write, value, size):
    """``value`` as ``size`` big-endian bytes (two's complement) at ``at``; return the end."""
    if write:
        for i in range(size):
            out[at + i] = (value >> (8 * (size - 1 - i))) & 255
    return at + size


@kernel
def _assemble_row(pieces, piece_starts, sizes, palettes, data, lengths, count, air, empty_sections,
                  payloads, payload_starts, heights, entities, entity_starts, entity_counts, cz):
    """Every chunk of a row as NBT bytes, end to end: ``(out, ends)``. Two passes: the first
    measures each chunk, the second writes into an array of exactly that size. ``data`` holds
    each section's longs as big-endian bytes, ``heights`` each chunk's heightmap longs."""
    chunks = heights.shape[0]
    ends = np.zeros(chunks + 1, dtype=np.int64)
    out = np.empty(0, dtype=np.uint8)
    total = SECTION_COUNT
    for write in range(2):
        if write:
            out = np.empty(ends[chunks], dtype=np.uint8)
        at = 0
        for cx in range(chunks):
            at = _copy(out, at, write, pieces, piece_starts[_HEAD_X], piece_starts[_HEAD_X + 1])
            at = _big_endian(out, at, write, cx, 4)
            at = _copy(out, at, write, pieces, piece_starts[_Z], piece_starts[_Z + 1])
            at = _big_endian(out, at, write, cz, 4)
            listed = total - count if empty_sections else 0
            for s in range(count):
                k = cx * count + s
                if empty_sections or sizes[k] > 1 or palettes[k, 0] != air:
                    listed += 1
            at = _copy(out, at, write, pieces, piece_starts[_SECTION_LIST], piece_starts[_SECTION_LIST + 1])
            at = _big_endian(out, at, write, listed, 4)
            for s in range(total):
                k = cx * count + s
                size = 1
                if s < count:
                    size = sizes[k]
                    if not empty_sections and size == 1 and palettes[k, 0] == air:
                        continue
                elif not empty_sections:
                    break
                at = _copy(out, at, write, pieces, piece_starts[_SECTION_Y], piece_starts[_SECTION_Y + 1])
                at = _big_endian(out, at, write, FIRST_SECTION + s, 1)
                at = _copy(out, at, write, pieces, piece_starts[_STATES], piece_starts[_STATES + 1])
                at = _big_endian(out, at, write, size, 4)
                for j in range(size):
                    g = palettes[k, j] if s < count else air
                    at = _copy(out, at, write, payloads, payload_starts[g], payload_starts[g + 1])
                if size > 1:
                    at = _copy(out, at, write, pieces, piece_starts[_DATA_LONGS], piece_starts[_DATA_LONGS + 1])
                    at = _big_endian(out, at, write, lengths[k], 4)
                    at = _copy(out, at, write, data[k], 0, 8 * lengths[k])
                at = _copy(out, at, write, pieces, piece_starts[_SECTION_END], piece_starts[_SECTION_END + 1])
            at = _copy(out, at, write, pieces, piece_starts[_HEIGHTS], piece_starts[_HEIGHTS + 1])
            at = _copy(out, at, write, heights[cx], 0, heights.shape[1])
            at = _copy(out, at, write, pieces, piece_starts[_ENTITY_LIST], piece_starts[_ENTITY_LIST + 1])
            at = _big_endian(out, at, write, COMPOUND if entity_counts[cx] else END, 1)
            at = _big_endian(out, at, write, entity_counts[cx], 4)
            at = _copy(out, at, write, entities, entity_starts[cx], entity_starts[cx + 1])
            at = _copy(out, at, write, pieces, piece_starts[_TAIL], piece_starts[_TAIL + 1])
            ends[cx + 1] = at
    return out, ends


def chunk_payload(nbt) -> bytes:
    """A chunk record's zlib payload of ``nbt``: stored when that fits one sector, else
    deflated at level 1 (see the module's notes).

    >>> small, big = bytes(3000), bytes(range(256)) * 64
    >>> len(chunk_payload(small)) > 3000, zlib.decompress(chunk_payload(small)) == small
    (True, True)
    >>> len(chunk_payload(big)) < 4096, zlib.decompress(chunk_payload(big)) == big
    (True, True)
    """
    stored = zlib.compress(nbt, 0)
    return stored if len(stored) + 5 <= SECTOR else zlib.compress(nbt, 1)


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

    def __init__(self, file: BinaryIO):
        self.file = file
        self.locations = np.zeros(1024, dtype=">u4")
        self.timestamps = np.zeros(1024, dtype=">u4")  # seconds; 0 unless a caller sets them
        self.file.seek(0)
        self.file.write(bytes(2 * SECTOR))
        self.sector = 2

    def add(self, cx: int, cz: int, nbt: bytes) -> None:
        """Append one chunk's record from its NBT (:func:`chunk_payload`)."""
        self.add_compressed(cx, cz, chunk_payload(nbt))

    def add_compressed(self, cx: int, cz: int, payload: bytes) -> None:
        """Append one chunk's record from its payload made already (:func:`chunk_payload`,
        perhaps on another thread)."""
        size = len(payload) + 5
        sectors = -(-size // SECTOR)
        if sectors > 255:
            raise ValueError(f"chunk {cx},{cz} takes {sectors} sectors; a region record holds 255")
        self.file.write(struct.pack(">IB", len(payload) + 1, ZLIB) + payload + bytes(sectors * SECTOR - size))
        self.locations[(cx & 31) + (cz & 31) * 32] = self.sector << 8 | sectors
        self.sector += sectors

    def add_record(self, slot: int, record: bytes) -> None:
        """Append a record as another region file holds it (its length, compression byte and
        payload, :func:`region_records`): copied as its bytes, whatever its compression."""
        sectors = -(-len(record) // SECTOR)
        self.file.write(record + bytes(sectors * SECTOR - len(record)))
        self.locations[slot] = self.sector << 8 | sectors
        self.sector += sectors

    def close(self) -> None:
        """Write the header (locations, then timestamps: 0 unless set)."""
        self.file.seek(0)
        self.file.write(self.locations.tobytes())
        self.file.write(self.timestamps.tobytes())
        self.file.seek(0, 2)


def region_records(data: bytes, name: str) -> dict[int, tuple[bytes, int]]:
    """Every chunk record of a region file's bytes by slot: ``(record, timestamp)``, the record
    its length, compression byte and payload (no padding). A damaged header is refused.

    >>> import io
    >>> out = io.BytesIO(); region = RegionWriter(out); region.add(3, 0, b"\\x0a\\x00\\x00\\x00"); region.close()
    >>> list(region_records(out.getvalue(), "r.0.0.mca"))
    [3]
    """
    from ...errors import BadFileError

    if len(data) < 2 * SECTOR:
        raise BadFileError(f"{name}: shorter than a region file's 8 KiB header")
    locations = np.frombuffer(data[:SECTOR], dtype=">u4")
    stamps = np.frombuffer(data[SECTOR:2 * SECTOR], dtype=">u4")
    out = {}
    for slot in np.flatnonzero(locations).tolist():
        offset, sectors = int(locations[slot]) >> 8, int(locations[slot]) & 0xFF
        start = offset * SECTOR
        if offset < 2 or start + 5 > len(data):
            raise BadFileError(f"{name}: chunk slot {slot} points outside the file")
        length = struct.unpack(">I", data[start:start + 4])[0]
        if length < 1 or start + 4 + length > len(data) or length + 4 > max(sectors, 1) * SECTOR:
            raise BadFileError(f"{name}: chunk slot {slot} has a damaged length ({length})")
        out[slot] = (data[start:start + 4 + length], int(stamps[slot]))
    return out


def chunk_nbt(record: bytes, where: str) -> bytes:
    """A chunk record's NBT bytes: compression 1 (gzip), 2 (zlib) or 3 (none). LZ4 (4, the
    server option of 1.20.5+) and a chunk kept in its own ``.mcc`` file (+128, over 1 MiB) are
    refused in one line.

    >>> chunk_nbt(struct.pack(">IB", 5, 3) + b"\\x0a\\x00\\x00\\x00", "chunk 0, 0")
    b'\\n\\x00\\x00\\x00'
    """
    from ...errors import BadFileError, BlockmazeError

    compression, payload = record[4], record[5:]
    if compression & 128:
        raise BlockmazeError(f"{where} is kept in a .mcc file of its own (over 1 MiB); blockmaze "
                             "does not rewrite such chunks: choose another --at")
    try:
        if compression == 1:
            return zlib.decompress(payload, 16 + zlib.MAX_WBITS)
        if compression == ZLIB:
            return zlib.decompress(payload)
    except zlib.error as error:
        raise BadFileError(f"{where}: damaged compressed data ({error})") from None
    if compression == 3:
        return bytes(payload)
    if compression == 4:
        raise BlockmazeError(f"{where} is LZ4-compressed (region-file-compression=lz4); blockmaze "
                             "reads deflate only: set the server back to deflate and open the world once")
    raise BadFileError(f"{where}: unknown compression {compression}")
