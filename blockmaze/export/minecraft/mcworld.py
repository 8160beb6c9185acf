"""Bedrock worlds (``.mcworld``): a zip that Minecraft Bedrock opens with a tap (phones,
tablets, consoles, Windows), holding ``level.dat``, ``levelname.txt`` and ``db/``, the world's
chunks in Mojang's LevelDB (written through ``amulet-leveldb``, a wrapper of Mojang's own
LevelDB fork with its zlib compression; docs/voxels.md, "Bedrock worlds", gives the facts and their sources).

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

import contextlib
import functools
import json
import mmap
import shutil
import struct
import tempfile
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import BinaryIO

import nbtlib
import numpy as np
from nbtlib import Byte, Compound, Int, List, Long, String

from ...errors import BlockmazeError, OutputError
from ...materials import Theme
from .. import register_writer, size_limits, volume_slices
from .blockdata import checked_theme
from .bedrock import BLOCK_VERSION, bedrock_state
from .blockentities import bedrock_entity, block_entities
from ...support.kernels import compiled_pays, kernel
from .packing import pack_rows
from .palette import check_theme_states
from ..defaults import TERRAIN
from .world import (TIME, Y, MAX_Y, MIN_Y, TERRAINS, check_height, terrain_layers,
                    world_name)

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
# worlds stream: memory holds about four batches (ours, LevelDB's copy, two memtables): a
# 5000x5000 world's peak is 0.6 GB (0.3 GB with 4 MiB batches, which took twice the time).
# LevelDB also maps the tables it merges into the process: at 20000x20000 those pages (page
# cache, which the system takes back when it needs it) add up to 0.65 GB of resident memory.
BATCH_BYTES = 64 << 20
# The log is deflated at this level: 0.26 s for a 1000x1000 world's 44 MB on two threads' time,
# 5.7 MB (level 6: 1.35 s, 4.0 MB; LevelDB's own tables, zlib at its default level: 4.7 MB)
ZIP_LEVEL = 2
# A palette is drawn for a run of bands at once, about this many blocks (and at most this many
# rows): drawn band by band, its fixed costs took as long as the draws of a 1000x1000 maze.
GROUP_BLOCKS, GROUP_ROWS = 1 << 21, 256
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


@kernel
def _bits(count):
    """Bits a palette index takes: 1 to 6, 8 or 16 (the widths a sub-chunk allows).

    >>> [_bits(n) for n in (1, 2, 3, 64, 65, 256, 257)]
    [1, 1, 2, 6, 8, 8, 16]
    """
    bits = 1
    while (1 << bits) < count:
        bits += 1
    return bits if bits <= 6 else 8 if bits <= 8 else 16


@cache
def _entry(name: str, states: tuple) -> bytes:
    """A palette entry's little-endian NBT (a named compound with an empty name)."""
    return _nbt(Compound({"name": String(name), "states": Compound(dict(states)),
                          "version": Int(BLOCK_VERSION)}))


class _Bytes(bytearray):
    def write(self, data) -> None:
        self += data


@kernel(small=1 << 18, nogil=True)
def _encode_row(indices, lookup, base, lift, blob, starts, out, ends, heights, present, local, states):
    """The sub-chunks of a row of chunks as whole records, into ``out``: sub-chunk
    ``s = cx * ny + cy`` ends at ``ends[s]`` (where the one before ended, if all air).

    A block's global state id is ``lookup[indices[yy - lift, z, x]]`` inside the band
    (``indices``: palette indices, (height, rows <= 16, width)), ``base[yy]`` elsewhere (the
    ground and the air, ``yy`` from the world's floor); ``blob[starts[i]:starts[i + 1]]`` is
    state ``i``'s palette entry. A record: version 9, one layer, its y index, ``bits << 1``, the
    indices packed x, z, y (y fastest) into little-endian 32-bit words (``32 // bits`` a word,
    lowest bits first), the palette's size (int32) and its entries in state order. ``heights``
    (16 z, x; zeros on entry) gets each column's top: one above its highest block that is not
    air (state 0). ``present``, ``local`` (one per state) and ``states`` (4096) are scratch."""
    height, rows, width = indices.shape
    ny = base.shape[0] // 16
    nx = ends.shape[0] // ny
    count = starts.shape[0] - 1
    at = 0
    for s in range(nx * ny):
        cx, cy = s // ny, s % ny
        y0, x0 = cy * 16, cx * 16
        present[:] = False
        low = min(max(lift, y0), y0 + 16)   # the band's layers within this sub-chunk: [low, high)
        high = max(min(lift + height, y0 + 16), low)
        i = 0
        for x in range(x0, x0 + 16):
            for z in range(16):
                top = -1
                inside = z < rows and x < width  # (else the ground and the air alone)
                for yy in range(y0, y0 + 16):
                    if inside and low <= yy < high:
                        state = lookup[indices[yy - lift, z, x]]
                    else:
                        state = base[yy]
                    states[i] = state
                    i += 1
                    present[state] = True
                    if state != 0:
                        top = yy
                if top >= 0:  # (the sub-chunks of a column rise: the last is the highest)
                    heights[z, x] = top + 1
        n = 0
        for state in range(count):
            if present[state]:
                local[state] = n
                n += 1
        if n == 1 and present[0]:  # air alone: left out
            ends[s] = at
            continue
        bits = _bits(n)
        out[at] = 9  # SUBCHUNK_FORMAT
        out[at + 1] = 1  # one storage layer
        out[at + 2] = (cy + MIN_Y // 16) & 0xFF  # the y index, as an int8
        out[at + 3] = bits << 1  # (the low bit 0: a persistent palette)
        at += 4
        shift = 0
        word = 0
        for i in range(4096):  # (32 // bits indices a word: written once the next would not fit)
            word |= local[states[i]] << shift
            shift += bits
            if shift + bits > 32 or i == 4095:
                for b in range(4):
                    out[at + b] = (word >> (8 * b)) & 0xFF
                at += 4
                word = 0
                shift = 0
        for b in range(4):
            out[at + b] = (n >> (8 * b)) & 0xFF
        at += 4
        for state in range(count):
            if present[state]:
                for j in range(starts[state], starts[state + 1]):
                    out[at] = blob[j]
                    at += 1
        ends[s] = at


def subchunks(indices: np.ndarray, lookup: np.ndarray, base: np.ndarray, lift: int,
              entries: list[bytes]) -> tuple[list[tuple[int, int, bytes]], np.ndarray]:
    """The sub-chunk records (format 9, one storage layer) of a row of chunks and its columns'
    tops. The row's global state ids are ``lookup[indices]`` for the band (``indices``: palette
    indices as (y, z <= 16, x)), its lowest layer ``lift`` blocks above the world's floor, and
    ``base[y]`` around it (the ground, the air: a whole number of sub-chunks from the floor up);
    ``entries[i]`` is state ``i``'s palette entry (state 0 is air).

    Returns (cx, the sub-chunk's y index, its record) for each sub-chunk that is not all air, in
    order of cx then y (indices in x, z, y order, y fastest), and the (16 z, x) heights above
    the world's floor where light from the sky begins (0 over a column of air).
    """
    height, rows, width = indices.shape
    ny, nx = base.size // 16, -(-width // 16)
    if compiled_pays(nx * ny * 4096, 1 << 20):
        starts = np.zeros(len(entries) + 1, dtype=np.int64)
        starts[1:] = np.cumsum([len(entry) for entry in entries])
        blob = np.frombuffer(b"".join(entries), dtype=np.uint8)
        ends = np.zeros(nx * ny, dtype=np.int64)
        out = np.empty(nx * ny * (8 + 4 * 4096 // 2 + len(blob)), dtype=np.uint8)  # (16 bits at most)
        heights = np.zeros((16, nx * 16), dtype=np.int32)
        _encode_row(indices, lookup, base, lift, blob, starts, out, ends, heights,
                    np.zeros(len(entries), np.bool_), np.zeros(len(entries), np.uint32),
                    np.empty(4096, np.uint32))
        data = out[:ends[-1]].tobytes()
        found, at = [], 0
        for s, end in enumerate(ends.tolist()):
            if end > at:
                found.append((s // ny, s % ny + MIN_Y // 16, data[at:end]))
                at = end
        return found, heights
    column = np.empty((ny * 16, 16, nx * 16), dtype=np.uint32)
    column[:] = base[:, None, None]
    column[lift:lift + height, :rows, :width] = lookup[indices]
    solid = column != 0
    heights = np.where(solid.any(axis=0), column.shape[0] - np.argmax(solid[::-1], axis=0), 0)
    order = (column.reshape(ny, 16, 16, nx, 16).transpose(3, 0, 4, 2, 1)
             .reshape(nx * ny, 4096))  # (cx, cy) rows of x, z, y with y fastest
    present = np.zeros((nx * ny, len(entries)), dtype=bool)
    present[np.arange(nx * ny)[:, None], order] = True
    kept = np.flatnonzero(present[:, 1:].any(axis=1))  # (air is state 0)
    local = np.cumsum(present[kept], axis=1, dtype=np.uint32) - 1  # global -> local index
    sizes = present[kept].sum(axis=1)
    found = []
    for bits in np.unique([_bits(int(n)) for n in sizes]) if kept.size else []:
        picked = np.flatnonzero([_bits(int(n)) == bits for n in sizes])
        values = np.take_along_axis(local[picked], order[kept[picked]], axis=1)
        packed = pack_rows(values, int(bits), word=32)
        for row, words in zip(picked.tolist(), packed, strict=True):
            cx, cy = divmod(int(kept[row]), ny)
            palette = np.flatnonzero(present[kept[row]]).tolist()
            index = cy + MIN_Y // 16
            found.append((cx, index, bytes((SUBCHUNK_FORMAT, 1, index & 0xFF, int(bits) << 1))
                          + words.astype("<u4").tobytes() + struct.pack("<i", len(palette))
                          + b"".join(entries[i] for i in palette)))
    return sorted(found, key=lambda item: item[:2]), heights


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
    terrain: str = TERRAIN,
    y: int = Y,
    seed: int | None = None,
    mobs: bool = False,
    time: int | None = TIME,
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
        with _database_errors(folder):
            db = open_leveldb(folder / "db")
            try:
                spawn = _write_chunks(db, bands, theme, layers, y, seed)
            finally:
                db.close()  # (the log holds what no table does: the game reads both)
        name = world_name(file, name)
        files: dict[str, bytes | Callable[[], bytes | memoryview]] = {
            "level.dat": _level_dat(name, layers, spawn, seed, mobs, time),
            "levelname.txt": name.encode("utf-8")}
        for path in sorted((folder / "db").iterdir()):
            if path.name not in ("LOG", "LOG.old", "LOCK"):  # (a log of times; a lock of this run)
                files[f"db/{path.name}"] = functools.partial(_mapped, path)
        from ..zipped import write_zip

        # the tables hold zlib-compressed blocks already: stored as they are (deflating them
        # again took about a tenth of a 1000x1000 world's time and saved nothing); the log,
        # our records as they are, is deflated fast on two threads (ZIP_LEVEL); each file is
        # mapped as its member is written and unmapped after (a 20000x20000 world's 2 GB of
        # tables, all mapped at once, counted 1.7 GB in the process's resident memory)
        write_zip(file, files, level=ZIP_LEVEL, stored=[n for n in files if n.endswith(".ldb")],
                  threads=2)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def _database_errors(folder: Path) -> Iterator[None]:
    """LevelDB's own errors while the world's database is written (a full disk, a file-size
    limit) as one line: the world could not be written.

    >>> with _database_errors(Path("/tmp")):
    ...     raise __import__("leveldb").LevelDBException(b"IO error: db/000003.log: File too large")
    Traceback (most recent call last):
    ...
    blockmaze.errors.OutputError: cannot write the Bedrock world's database in / (it is made there first): File too large
    """
    try:
        from leveldb import LevelDBException
    except ImportError:  # (open_leveldb says what is missing)
        yield
        return
    try:
        yield
    except LevelDBException as error:
        text = error.args[0].decode("utf-8", "replace") if error.args and \
            isinstance(error.args[0], bytes) else str(error)
        reason = text.rsplit(": ", 1)[-1] if ": " in text else text
        raise OutputError(f"cannot write the Bedrock world's database in {folder.parent} (it "
                          f"is made there first): {reason}") from None


def _mapped(path: Path) -> bytes | memoryview:
    """A file's bytes: a large one mapped (the page cache's pages, no copy; unmapped once the
    view is dropped), a small one read."""
    if path.stat().st_size < 1 << 20:
        return path.read_bytes()
    with open(path, "rb") as handle:
        return memoryview(mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ))


def _groups(bands, first) -> Iterator[np.ndarray]:
    """The bands regrouped into runs of whole 16-row bands, about GROUP_BLOCKS blocks each (the
    last may be shorter): a palette is drawn for a run at a time. ``first(band)`` checks the
    first band and gives the blocks in one of its rows."""
    held: list[np.ndarray] = []
    rows = have = 0
    shape = None
    for band in bands:
        if band.ndim != 3:
            raise BlockmazeError(f"a band is a (y, z, x) array, got one of shape {band.shape}")
        if shape is None:
            shape = band.shape[::2]
            rows = max(BANDS, min(GROUP_ROWS, GROUP_BLOCKS // max(1, first(band)) // BANDS * BANDS))
        elif band.shape[::2] != shape:
            raise BlockmazeError(f"a band is {band.shape}: every band needs the first one's "
                                 f"{shape[0]} layers and {shape[1]} columns")
        held.append(band)
        have += band.shape[1]
        while have >= rows:
            joined = held[0] if len(held) == 1 else np.concatenate(held, axis=1)
            yield joined[:, :rows]
            held, have = ([joined[:, rows:]] if have > rows else []), have - rows
    if have:
        yield held[0] if len(held) == 1 else np.concatenate(held, axis=1)


def _write_chunks(db, bands, theme: Theme, layers, y: int, seed) -> tuple[int, int, int]:
    """Put every chunk of the maze (with its ground) into ``db``; the spawn (x, y, z).

    Two threads work ahead of this one, in numpy and numba (which hold no GIL): the first draws
    the palette of a run of bands, the second makes each band's row of chunks (sub-chunk
    records, heights); this one keys the records and puts them into the db."""
    from ..ahead import DEPTH, worked_ahead
    from .palette import haloed_palette, with_next_rows
    from .placement import player_spot
    from .world import _Spawn, arrival

    whole = bands if isinstance(bands, np.ndarray) else None
    if whole is not None:
        bands = volume_slices(whole, BANDS)
    states: dict[tuple, int] = {}
    entries: list[bytes] = []

    def state_id(name: str, tags: dict) -> int:  # (called from the first thread alone)
        key = (name, tuple(sorted(tags.items())))
        if key not in states:
            states[key] = len(entries)
            entries.append(_entry(*key))
        return states[key]

    air = state_id("minecraft:air", {})  # state 0: what a sub-chunk of nothing else is left out for
    ground = [(state_id(*GROUND[block]), height) for block, height in layers]
    spawn = _Spawn()
    shape: list = []  # height, width and the column's states around the maze: by the first band
    before: list = [None]  # the last row of the run before (doors on a run's edge face right)
    z_next = [0]

    def first(band: np.ndarray) -> int:
        """Check the first band and make the column around the maze; the blocks of a row."""
        height, _, width = band.shape
        check_size((height, 1, width))
        check_height(height, y)
        base = np.full(-(-(y + height - MIN_Y) // 16) * 16, air, dtype=np.uint32)
        floor = 0
        for state, thickness in ground:
            base[floor:floor + thickness] = state
            floor += thickness
        shape.extend((height, width, base))
        return height * width

    def drawn(pair) -> tuple:
        """A run of bands: its first row, palette indices, global state ids and entities."""
        run, after = pair
        z0 = z_next[0]
        z_next[0] += run.shape[1]
        indices, palette = haloed_palette(run, before[0], after, z0, theme, seed)
        before[0] = run[:, -1:]
        spawn.look(run, z0)
        lookup = np.array([state_id(*_translated(state)) for state in palette], dtype=np.uint32)
        entities = block_entities(run, indices, palette, seed, origin=(0, z0, 0))
        return run, z0, indices, lookup, entities, list(entries)

    def encoded(made: tuple) -> list[tuple]:
        """The run's bands as rows of chunks: (band, z0, entities, sub-chunks, Data3D) each."""
        run, z0, indices, lookup, entities, known = made
        base = shape[2]
        rows = []
        for at in range(0, run.shape[1], BANDS):
            found, top = subchunks(indices[:, at:at + BANDS], lookup, base, y - MIN_Y, known)
            mine = [e for e in entities if at <= e.position[1] < at + BANDS]
            rows.append((run[:, at:at + BANDS], z0 + at, z0, mine, found, _data_3d(top)))
        return rows

    pending: dict[bytes, bytes] = {}  # rows of chunks, put at once when BATCH_BYTES are reached
    size = 0
    spot = player_spot(whole) if whole is not None else None
    version, finalized = bytes([CHUNK_VERSION]), struct.pack("<i", 2)
    # a key: the chunk's x and z (little-endian int32), its tag, a sub-chunk's y (int8);
    xs: list[bytes] = []  # each chunk x as the first 4 bytes of its keys
    ahead = worked_ahead(worked_ahead(with_next_rows(_groups(_checked(bands, theme), first)),
                                      drawn, DEPTH), encoded, DEPTH)
    try:
        for rows in ahead:
            for band, z0, origin, entities, found, data_3d in rows:
                if z0 == 0 and whole is None:
                    spot = player_spot(band, 1 << 30)  # streamed: it lies by the first band
                cz = struct.pack("<i", z0 // 16)
                while len(xs) < len(data_3d):
                    xs.append(struct.pack("<i", len(xs)))
                by_chunk: dict[int, list] = {}
                for cx, cy, record in found:
                    by_chunk.setdefault(cx, []).append((xs[cx] + cz + SUBCHUNK + struct.pack("b", cy), record))
                by_entity: dict[int, list] = {}
                for e in entities:
                    by_entity.setdefault(e.position[2] // 16, []).append(e)
                row: list[tuple[bytes, bytes]] = []  # the band's row of chunks, chunk by chunk
                for cx, heights in enumerate(data_3d):
                    key = xs[cx] + cz
                    row += ((key + VERSION, version), (key + DATA_3D, heights), (key + FINALIZED, finalized))
                    row += by_chunk.get(cx, ())
                    if cx in by_entity:
                        row.append((key + BLOCK_ENTITIES, b"".join(
                            _nbt(_placed(bedrock_entity(e), y, origin)) for e in by_entity[cx])))
                grown = sum(len(value) for _, value in row)
                if pending and size + grown > BATCH_BYTES:  # (outgrown only by one row alone)
                    db.putBatch(pending)
                    pending, size = {}, 0
                pending.update(row)
                size += grown
    finally:
        ahead.close()  # stops the threads working ahead
    if not shape:
        raise BlockmazeError("a world needs at least one band of blocks")
    if pending:
        db.putBatch(pending)
    height, width, _ = shape
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


register_writer("mcworld", write_mcworld, check_size, prepare_theme=checked_theme)
