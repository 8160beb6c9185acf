"""Bedrock worlds (``.mcworld``): a zip that Minecraft Bedrock opens with a tap (phones,
tablets, consoles, Windows), holding ``level.dat``, ``levelname.txt`` and ``db/``, the world's
chunks in Mojang's LevelDB (written through ``amulet-leveldb``, a wrapper of Mojang's own
LevelDB fork with its zlib compression; docs/minecraft.md §8 gives the facts and their sources).

``level.dat``: an 8-byte header (little-endian ``int32`` storage version 10, then the length of
what follows), then little-endian NBT: the name, a flat world (``Generator`` 2) whose layers
(``FlatWorldLayers``) are the ground of the Java world around the maze, the spawn, the game rules
(no mob spawning, a fixed time of day, as the Java world), and the releases it was written for.

``db/``, per chunk column (key: chunk x and z as little-endian ``int32``, then a tag byte):
``,`` (0x2c) the chunk version (40: read by every release since 1.18.30, which upgrades it);
``/`` (0x2f) + the sub-chunk's y (``int8``) each 16-block sub-chunk, format 9: version, one
storage layer, its y, then ``bits << 1`` (persistent), the block indices packed into
little-endian 32-bit words (lowest bits first; y fastest, then z, then x), the palette's size and
its entries as little-endian NBT (``name``, ``states``, ``version``: the states of the
``.mcstructure`` writer, block for block); ``+`` (0x2b) the heightmap (256 ``int16``) and one
biome per sub-chunk (plains) for the 24 sub-chunks from y = -64; ``1`` (0x31) the block entities
(spawners and chests) as little-endian NBT one after another; ``6`` (0x36) the finalized state
(``int32`` 2: done, so the game does not generate over the maze).

The maze stands at x, z >= 0 with its lowest layer at ``y``, on the ground the flat generator
lays around it; bands of 16 rows come one at a time, so a maze larger than memory streams. The
records go into the db in batches of up to ``BATCH_BYTES``: a world up to that size lies in
LevelDB's log alone, which the zip deflates (docs/voxels.md says why).

Example
-------
>>> import io, zipfile
>>> from blockmaze.materials import load_theme
>>> out = io.BytesIO()
>>> write_mcworld(np.ones((2, 3, 4), np.uint8), out, load_theme(), name="Maze")  # doctest: +SKIP
>>> sorted(zipfile.ZipFile(out).namelist())[:3]  # doctest: +SKIP
['db/000003.log', 'db/CURRENT', 'db/MANIFEST-000002']
"""

from __future__ import annotations

import json
import shutil
import struct
import tempfile
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import BinaryIO

import nbtlib
import numpy as np
from nbtlib import Byte, Compound, Int, List, Long, String

from ...errors import BlockmazeError
from ...materials import Theme
from .. import register_writer, size_limits, volume_slices
from .bedrock import BLOCK_VERSION, bedrock_state
from .blockentities import bedrock_entity, block_entities
from ...support.kernels import compiled_pays, kernel
from .packing import pack_rows
from .palette import band_palettes, check_theme_states
from .world import DEFAULT_TIME, DEFAULT_Y, MAX_Y, MIN_Y, TERRAINS, terrain_layers, world_name

CHUNK_VERSION = 40  # written by 1.18.30 to 1.21.31; every later release reads and upgrades it
SUBCHUNK_FORMAT = 9
STORAGE_VERSION = 10
DATA_3D, VERSION, SUBCHUNK, BLOCK_ENTITIES, FINALIZED = b"+", b",", b"/", b"1", b"6"
PLAINS = 1  # Bedrock's biome id
SECTIONS = (MAX_Y + 1 - MIN_Y) // 16  # 24 sub-chunks from y = -64 to 319
WRITTEN_FOR = (1, 21, 90, 0, 0)  # the release the block states are written in (as .mcstructure)
NETWORK_VERSION = 818  # 1.21.90's protocol
BANDS = 16
# Records put into the db in one batch. LevelDB writes a batch to its log and its memtable, and
# the next batch, once the memtable holds 4 MiB, sends it to a background thread that compresses
# it into a table (zlib at its default level, 35-45 MB/s here: 1.1-1.3 s of CPU for a 1000x1000
# world's 44 MB, and a merge of the first tables that close() abandons). A world up to this
# size is one batch: its log alone, which the zip deflates fast instead (ZIP_LEVEL). Larger
# worlds stream: memory holds about four batches (ours, LevelDB's copy, two memtables).
BATCH_BYTES = 64 << 20
# The log is deflated at this level: 0.26 s for a 1000x1000 world's 44 MB on two threads' time,
# 5.7 MB (level 6: 1.35 s, 4.0 MB; LevelDB's own tables, zlib at its default level: 4.7 MB)
ZIP_LEVEL = 2
WORLD_LIMIT = 30_000_000  # the world border, in blocks from the origin
# the ground's blocks in Bedrock's names (1.21.60 states, as the .mcstructure palette)
GROUND = {"minecraft:bedrock": ("minecraft:bedrock", {"infiniburn_bit": Byte(0)}),
          "minecraft:dirt": ("minecraft:dirt", {}), "minecraft:stone": ("minecraft:stone", {}),
          "minecraft:grass_block": ("minecraft:grass_block", {})}
MISSING = ("writing a Bedrock world (.mcworld) needs Mojang's LevelDB through the amulet-leveldb "
           "package: pip install 'blockmaze[bedrock]' (from a checkout: pip install '.[bedrock]'; "
           "it builds with a C++ compiler and zlib's headers)")


def open_leveldb(folder: Path):
    """A new LevelDB in ``folder`` (Mojang's fork, zlib compression), or a BlockmazeError
    naming the extra that provides it."""
    try:
        from leveldb import LevelDB
    except ImportError:
        raise BlockmazeError(MISSING) from None
    return LevelDB(str(folder), create_if_missing=True)


def chunk_key(cx: int, cz: int, tag: bytes, cy: int | None = None) -> bytes:
    """The LevelDB key of a chunk's record ``tag`` (a sub-chunk's with its y).

    >>> chunk_key(1, -1, SUBCHUNK, -4).hex()
    '01000000ffffffff2ffc'
    """
    return struct.pack("<ii", cx, cz) + tag + (b"" if cy is None else struct.pack("b", cy))


def _bits(count: int) -> int:
    """Bits a palette index takes: 1 to 6, 8 or 16 (the widths a sub-chunk allows)."""
    bits = max(1, (count - 1).bit_length())
    return bits if bits <= 6 else 8 if bits <= 8 else 16


@cache
def _entry(name: str, states: tuple) -> bytes:
    """A palette entry's little-endian NBT (a named compound with an empty name)."""
    return _nbt(Compound({"name": String(name), "states": Compound(dict(states)),
                          "version": Int(BLOCK_VERSION)}))


class _Bytes(bytearray):
    def write(self, data) -> None:
        self += data


@kernel(small=1 << 18)
def _encode_row(column, count, words, nwords, widths, present, palettes, sizes):
    """Sub-chunk ``s = cx * ny + cy`` of a row of chunks (``column``: global state ids as
    (y, 16 z, x)): the states present (``palettes[s, :sizes[s]]``, in order), the index width
    and the packed words (x, z, y order, y fastest; ``32 // bits`` indices a little-endian word,
    lowest bits first)."""
    height, _, width = column.shape
    ny = height // 16
    local = np.zeros(count, dtype=np.uint32)
    for s in range(words.shape[0]):
        cx, cy = s // ny, s % ny
        y0, x0 = cy * 16, cx * 16
        for x in range(16):
            for z in range(16):
                for y in range(16):
                    present[s, column[y0 + y, z, x0 + x]] = True
        n = 0
        for state in range(count):
            if present[s, state]:
                local[state] = n
                palettes[s, n] = state
                n += 1
        sizes[s] = n
        bits = 1
        while (1 << bits) < n:
            bits += 1
        if bits == 7:
            bits = 8
        elif bits > 8:
            bits = 16
        per_word = 32 // bits
        widths[s] = bits
        nwords[s] = (4096 + per_word - 1) // per_word
        word = 0
        filled = 0
        acc = np.uint32(0)
        for x in range(16):
            for z in range(16):
                for y in range(16):
                    acc |= local[column[y0 + y, z, x0 + x]] << np.uint32(filled * bits)
                    filled += 1
                    if filled == per_word:
                        words[s, word] = acc
                        word += 1
                        filled = 0
                        acc = np.uint32(0)
        if filled:
            words[s, word] = acc


def subchunks(column: np.ndarray, count: int) -> list[tuple[int, int, tuple, bytes]]:
    """The sub-chunks (format 9, one storage layer) of a row of chunks: ``column`` holds global
    state ids (< ``count``) as (y, 16 z, x), from the world's floor up, y and x a multiple of 16.
    Returns (cx, the sub-chunk's y index, the palette's state ids, the bytes before the
    palette's entries) for each sub-chunk that is not all air (state 0), the whole row at once:
    indices in x, z, y order (y fastest).
    """
    height, _, width = column.shape
    ny, nx = height // 16, width // 16
    if compiled_pays(column.size, 1 << 20):
        words = np.zeros((nx * ny, 2048), dtype=np.uint32)
        nwords = np.zeros(nx * ny, dtype=np.int32)
        widths = np.zeros(nx * ny, dtype=np.int32)
        present = np.zeros((nx * ny, count), dtype=np.bool_)
        palettes = np.zeros((nx * ny, count), dtype=np.int32)
        sizes = np.zeros(nx * ny, dtype=np.int32)
        _encode_row(column, count, words, nwords, widths, present, palettes, sizes)
        data = words.astype("<u4", copy=False).tobytes()  # (sliced per sub-chunk: no numpy call each)
        step = words.shape[1] * 4
        lists = palettes.tolist()
        return [_record(*divmod(s, ny), tuple(lists[s][:n]), bits, data[s * step:s * step + used * 4])
                for s, (n, bits, used) in enumerate(zip(sizes.tolist(), widths.tolist(),
                                                        nwords.tolist(), strict=True))
                if n > 1 or lists[s][0] != 0]  # (not air alone)
    order = (column.reshape(ny, 16, 16, nx, 16).transpose(3, 0, 4, 2, 1)
             .reshape(nx * ny, 4096))  # (cx, cy) rows of x, z, y with y fastest
    present = np.zeros((nx * ny, count), dtype=bool)
    present[np.arange(nx * ny)[:, None], order] = True
    kept = np.flatnonzero(present[:, 1:].any(axis=1))  # (air is state 0)
    local = np.cumsum(present[kept], axis=1, dtype=np.uint32) - 1  # global -> local index
    sizes = present[kept].sum(axis=1)
    found = []
    for bits in np.unique([_bits(int(n)) for n in sizes]) if kept.size else []:
        rows = np.flatnonzero([_bits(int(n)) == bits for n in sizes])
        values = np.take_along_axis(local[rows], order[kept[rows]], axis=1)
        packed = pack_rows(values, int(bits), word=32)
        for row, words in zip(rows.tolist(), packed, strict=True):
            cx, cy = divmod(int(kept[row]), ny)
            found.append(_record(cx, cy, tuple(np.flatnonzero(present[kept[row]]).tolist()),
                                 int(bits), words.astype("<u4").tobytes()))
    return sorted(found, key=lambda item: item[:2])


def _record(cx: int, cy: int, palette: tuple, bits: int, words: bytes):
    """(cx, the sub-chunk's y index, its palette, its bytes up to the palette's entries)."""
    index = cy + MIN_Y // 16
    head = bytes((SUBCHUNK_FORMAT, 1, index & 0xFF, bits << 1))  # (the index as an int8)
    return cx, index, palette, head + words + struct.pack("<i", len(palette))


def _data_3d(top: np.ndarray) -> list[bytes]:
    """Each chunk's heights along a row of chunks (``top``: 16 z by x, above the world's floor,
    where light from the sky begins) and one biome, plains, for each of the 24 sub-chunks."""
    biome = bytes([0 << 1 | 1]) + struct.pack("<i", PLAINS)  # no indices: one biome, the palette
    chunks = top.shape[1] // 16
    data = top.astype("<i2").reshape(16, chunks, 16).transpose(1, 0, 2).tobytes()
    return [data[c * 512:(c + 1) * 512] + biome * SECTIONS for c in range(chunks)]


def write_mcworld(
    bands: Iterable[np.ndarray] | np.ndarray,
    file: BinaryIO,
    theme: Theme,
    terrain: str = "grass",
    y: int = DEFAULT_Y,
    seed: int | None = None,
    mobs: bool = False,
    time: int | None = DEFAULT_TIME,
    name: str | None = None,
) -> None:
    """Write a maze (bands of a (y, z, x) volume, or the volume) as a Bedrock ``.mcworld``.

    ``terrain`` is void, flat or grass (as the Java world), ``y`` the height of the maze's lowest
    layer, ``mobs`` allows mob spawning, ``time`` fixes the time of day in ticks (None: days
    pass), ``name`` the world's name (default: the file's stem); ``seed`` draws the theme's variants,
    each block's from its position (the ``.mcstructure`` of the same maze has the same blocks).
    """
    if terrain not in TERRAINS:
        raise BlockmazeError(f"unknown terrain {terrain!r}; choose one of: {', '.join(TERRAINS)}")
    layers = terrain_layers(terrain, y)
    folder = Path(tempfile.mkdtemp(prefix="blockmaze-mcworld-"))
    try:
        db = open_leveldb(folder / "db")
        try:
            spawn = _write_chunks(db, bands, theme, layers, y, seed)
        finally:
            db.close()  # (the log holds what no table does: the game reads both)
        name = world_name(file, name)
        files = {"level.dat": _level_dat(name, layers, spawn, seed, mobs, time),
                 "levelname.txt": name.encode("utf-8")}
        for path in sorted((folder / "db").iterdir()):
            if path.name not in ("LOG", "LOG.old", "LOCK"):  # (a log of times; a lock of this run)
                files[f"db/{path.name}"] = path.read_bytes()
        from ..zipped import write_zip

        # the tables hold zlib-compressed blocks already: stored as they are (deflating them
        # again took about a tenth of a 1000x1000 world's time and saved nothing); the log,
        # our records as they are, is deflated fast on two threads (ZIP_LEVEL)
        write_zip(file, files, level=ZIP_LEVEL, stored=[n for n in files if n.endswith(".ldb")],
                  threads=2)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _write_chunks(db, bands, theme: Theme, layers, y: int, seed) -> tuple[int, int, int]:
    """Put every chunk of the maze (with its ground) into ``db``; the spawn (x, y, z)."""
    from .world import _Spawn, arrival
    from .placement import player_spot

    if isinstance(bands, np.ndarray):
        whole = bands
        bands = volume_slices(bands, BANDS)
    else:
        whole = None
    states: dict[tuple, int] = {}
    entries: list[bytes] = []
    palettes: dict[tuple, bytes] = {}  # a sub-chunk palette's entries, by its state ids

    def state_id(name: str, tags: dict) -> int:
        key = (name, tuple(sorted(tags.items())))
        if key not in states:
            states[key] = len(entries)
            entries.append(_entry(*key))
        return states[key]

    air = state_id("minecraft:air", {})  # state 0: what a sub-chunk of nothing else is left out for
    ground = [(state_id(*GROUND[block]), height) for block, height in layers]
    spawn, spot = _Spawn(), None
    height = width = None
    pending: dict[bytes, bytes] = {}  # rows of chunks, put at once when BATCH_BYTES are reached
    size = 0
    for band, z0, indices, palette in band_palettes(_checked(bands, theme), theme, seed):
        if height is None:
            height, _, width = band.shape
            check_size((height, 1, width))
            if y < MIN_Y or y + height - 1 > MAX_Y:
                raise BlockmazeError(f"a maze {height} blocks high at y = {y} leaves the world's "
                                     f"height ({MIN_Y} to {MAX_Y}); choose --y from {MIN_Y} to "
                                     f"{MAX_Y - height + 1}")
            spot = player_spot(whole) if whole is not None else player_spot(band, 1 << 30)
        spawn.look(band, z0)
        lookup = np.array([state_id(*_translated(state)) for state in palette], dtype=np.uint32)
        top_y = y + height  # the column's top, exclusive
        rows = band.shape[1]
        column = np.full((top_y - MIN_Y, BANDS, -(-width // 16) * 16), air, dtype=np.uint32)
        floor = 0
        for state, thickness in ground:
            column[floor:floor + thickness] = state
            floor += thickness
        column[y - MIN_Y:, :rows, :width] = lookup[indices]
        entities = block_entities(band, indices, palette, seed, origin=(0, z0, 0))
        solid = column != air
        top = np.where(solid.any(axis=0), solid.shape[0] - np.argmax(solid[::-1], axis=0), 0)
        cz = z0 // 16
        height_blocks = -(-column.shape[0] // 16) * 16
        if column.shape[0] < height_blocks:  # up to a whole sub-chunk, with air
            column = np.concatenate([column, np.full((height_blocks - column.shape[0],
                                                      *column.shape[1:]), air, np.uint32)])
        by_chunk: dict[int, list] = {}
        for cx, cy, palette_ids, head in subchunks(column, len(entries)):
            if palette_ids not in palettes:
                palettes[palette_ids] = b"".join(entries[i] for i in palette_ids)
            by_chunk.setdefault(cx, []).append((chunk_key(cx, cz, SUBCHUNK, cy),
                                                head + palettes[palette_ids]))
        by_entity: dict[int, list] = {}
        for e in entities:
            by_entity.setdefault(e.position[2] // 16, []).append(e)
        records: dict[bytes, bytes] = {}  # the band's row of chunks, one batch
        for cx, heights in enumerate(_data_3d(top)):
            records |= {chunk_key(cx, cz, VERSION): bytes([CHUNK_VERSION]),
                       chunk_key(cx, cz, DATA_3D): heights,
                       chunk_key(cx, cz, FINALIZED): struct.pack("<i", 2)}
            records.update(by_chunk.get(cx, ()))
            if cx in by_entity:
                records[chunk_key(cx, cz, BLOCK_ENTITIES)] = b"".join(
                    _nbt(_placed(bedrock_entity(e), y, z0)) for e in by_entity[cx])
        size += sum(map(len, records.values()))
        pending |= records
        if size >= BATCH_BYTES:
            db.putBatch(pending)
            pending, size = {}, 0
    if pending:
        db.putBatch(pending)
    if height is None:
        raise BlockmazeError("a world needs at least one band of blocks")
    x, sy, z, _ = arrival(spot, spawn.place(width, y, height), y, "void" if not layers else "grass",
                          spawn.opened)
    return x, sy, z


def _checked(bands, theme: Theme):
    """The bands, the first checked for a theme state Bedrock lacks before any is written."""
    checked = False
    for band in bands:
        band = np.asarray(band)
        if not checked:
            check_theme_states(band, theme, bedrock_state, "blockmaze cannot write for Bedrock: {error}")
            checked = True
        yield band


@cache
def _translated(state: str) -> tuple[str, dict]:
    name, tags = bedrock_state(state)
    return name, tags


def _placed(tag: Compound, y: int, z0: int) -> Compound:
    """A block entity's compound with the world's coordinates (the band's are from its corner)."""
    tag["y"] = Int(int(tag["y"]) + y)
    tag["z"] = Int(int(tag["z"]) + z0)
    return tag


def _nbt(root: Compound) -> bytes:
    out = _Bytes()
    nbtlib.File(root, root_name="").write(out, byteorder="little")
    return bytes(out)


def _level_dat(name: str, layers, spawn: tuple[int, int, int], seed, mobs: bool,
               time: int | None) -> bytes:
    """The level.dat file: its 8-byte header, then the little-endian NBT root."""
    x, y, z = spawn
    flat = {"biome_id": PLAINS, "encoding_version": 6, "structure_options": None,
            "world_version": "version.post_1_18",
            "block_layers": [{"block_name": block, "count": height} for block, height in layers]}
    version = List[Int]([Int(v) for v in WRITTEN_FOR])
    root = Compound({
        "StorageVersion": Int(STORAGE_VERSION),
        "NetworkVersion": Int(NETWORK_VERSION),
        "lastOpenedWithVersion": version,
        "MinimumCompatibleClientVersion": version,
        "LevelName": String(name),
        "Generator": Int(2),  # flat
        "FlatWorldLayers": String(json.dumps(flat, separators=(",", ":"))),
        "RandomSeed": Long(0 if seed is None else int(seed) % (1 << 63)),
        "SpawnX": Int(x), "SpawnY": Int(y), "SpawnZ": Int(z),
        "spawnradius": Int(0),
        "GameType": Int(0),
        "Difficulty": Int(1),
        "commandsEnabled": Byte(1),
        "cheatsEnabled": Byte(1),
        "doMobSpawning": Byte(int(mobs)),
        "doDaylightCycle": Byte(int(time is None)),
        "doWeatherCycle": Byte(int(time is None)),
        "Time": Long(0 if time is None else time),
        "currentTick": Long(0),
        "LastPlayed": Long(0),
    })
    body = _nbt(root)
    return struct.pack("<ii", STORAGE_VERSION, len(body)) + body


check_size = size_limits(".mcworld", max_side=WORLD_LIMIT)


register_writer("mcworld", write_mcworld, check_size)
