"""A maze built into an existing Bedrock world folder (``--into WORLD``), all or nothing.

A Bedrock world folder (``minecraftWorlds/NAME``, a server's ``worlds/NAME``) holds
``level.dat`` and ``db/``, the chunks in Mojang's LevelDB (read and written here through the
bedrock extra, ``amulet-leveldb``, Mojang's own LevelDB). A ``.mcworld`` file is refused in one
line: it is a copy to import, not the world the game plays (import it, then build into its
folder). What changes, per chunk the maze's box reaches (docs/minecraft.md §6.3 gives the keys):

* each sub-chunk (``/`` + y) the box reaches: merged, the maze's blocks inside the box, every
  block outside it kept (its palette entries byte for byte); in a second storage layer (the
  water of waterlogged blocks) the box is emptied, outside it kept;
* its block entities (``1``): those inside the box replaced by the maze's (spawners, chests),
  those outside kept byte for byte;
* its heightmap (the first 512 bytes of ``+``, Data3D): the columns in the box set to the
  blocks they now hold; its biomes kept;
* its checksums (``;``), which older releases wrote of its records: removed, no longer true.

Every other record (other chunks, entities, the chunk's version, finalized state, pending ticks,
the other dimensions, villages, players) is left as it was. The box must lie in chunks the
world has generated whole (a chunk version of 1.18.30 or later: the world from y = -64).

All or nothing: every new record goes into LevelDB in one write batch, one record of its log,
which LevelDB applies whole or (a run killed while writing it, a full disk) not at all when the
database next opens (docs/minecraft.md §6.3). Before the batch the database is copied, whole,
to ``WORLD/blockmaze-backups/STAMP/db/`` (its tables hard-linked: LevelDB never changes a table
once written) unless ``backup=False``: to undo, put that ``db`` in place of the world's. The run
holds ``db/LOCK`` as the game's LevelDB does (a POSIX ``fcntl`` lock), so a world open in the
game (or a server) is refused, and the game cannot open it meanwhile.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import struct
import time
from collections.abc import Iterable
from pathlib import Path

import nbtlib
import numpy as np
from nbtlib import Int

from ...errors import BadFileError, BlockmazeError, OutputError, ParameterError
from ...materials import Theme
from .. import Format, Writer, volume_slices
from ..target import remove_leftovers, staged_folder
from .bedrock import BLOCK_VERSION
from .blockdata import checked_theme
from .blockentities import bedrock_entity
from .into import (BACKUPS, Box, _free_name, check_size, maze_ids, relock, unexplored,
                   world_lock)
from .mcworld import (BLOCK_ENTITIES, DATA_3D, FINALIZED, MISSING, SUBCHUNK, VERSION, _checked,
                      _nbt, _translated)
from .terrain import check_follow
from .subchunks import AIR, Layer, _entry, read_subchunk, write_subchunk
from .versions import DEFAULT_MC_VERSION
from .world import MIN_Y, check_height

DB_LOCK = "db/LOCK"
FIRST_CHUNK_VERSION = 40  # 1.18.30's: the overworld from y = -64 (mcworld.CHUNK_VERSION)
LEGACY_VERSION = b"v"  # the chunk version's key before 1.16.100
CHECKSUMS = b";"  # xxHash64 of a chunk's records, which releases before 1.18 wrote


def is_bedrock(path: str | os.PathLike) -> bool:
    """Whether ``--into PATH`` names a Bedrock world: a folder holding ``db/``, or a
    ``.mcworld`` file (refused by :func:`check_world`).

    >>> is_bedrock("/nonexistent/World"), is_bedrock("/tmp/W.mcworld")
    (False, True)
    """
    path = Path(path)
    return (path / "db").is_dir() or path.suffix.lower() == ".mcworld"


def check_world(folder: Path) -> None:
    """Refuse what is not a Bedrock world folder, each in one line.

    >>> check_world(Path("/tmp/Maze.mcworld"))
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: --into /tmp/Maze.mcworld: a .mcworld file is a copy to import, not the world the game plays; import it (open it with Minecraft), then give its folder (minecraftWorlds/NAME)
    """
    if folder.suffix.lower() == ".mcworld" and not folder.is_dir():
        raise BlockmazeError(f"--into {folder}: a .mcworld file is a copy to import, not the world "
                             "the game plays; import it (open it with Minecraft), then give its "
                             "folder (minecraftWorlds/NAME)")
    if not (folder / "level.dat").is_file():
        raise BlockmazeError(f"--into {folder}: no level.dat, not a Bedrock world folder")
    if not (folder / "db" / "CURRENT").is_file():
        raise BlockmazeError(f"--into {folder}: its db/ holds no LevelDB database (no CURRENT), "
                             "not a Bedrock world folder")


def level_spawn(folder: Path) -> tuple[int, int]:
    """The spawn's (x, z) from a Bedrock ``level.dat`` (an 8-byte header, little-endian NBT);
    a world last opened in a release older than the maze's block states is refused."""
    path = folder / "level.dat"
    try:
        data = path.read_bytes()
        root = nbtlib.File.parse(io.BytesIO(data[8:]), byteorder="little")
        spawn = int(root["SpawnX"]), int(root["SpawnZ"])
        opened = tuple(int(v) for v in root.get("lastOpenedWithVersion", []))[:4]
    except OSError as error:
        raise OutputError(f"cannot read {path}: {error.strerror or error}") from None
    except Exception as error:  # nbtlib raises plain exceptions on broken input
        raise BadFileError(f"{path}: not a Bedrock level.dat ({type(error).__name__}: "
                           f"{error})") from None
    states = tuple(BLOCK_VERSION >> shift & 0xFF for shift in (24, 16, 8))
    if opened and opened[:3] < states:
        raise BlockmazeError(f"--into {folder}: a world last opened in Minecraft "
                             f"{'.'.join(map(str, opened))}; the maze's blocks are those of "
                             f"{'.'.join(map(str, states))}: open the world in that release or "
                             "a later one first")
    return spawn


class States:
    """The palette entries of one run by a global id (state 0 is air): a Java block state
    drawn by the theme becomes Bedrock's entry (the ``.mcstructure`` writer's states)."""

    def __init__(self) -> None:
        self.entries: list[bytes] = []
        self.names: list[str] = []
        self.index: dict[bytes, int] = {}
        self.of_bedrock(AIR, ())

    def of_bedrock(self, name: str, states: tuple) -> int:
        entry = _entry(name, states)
        found = self.index.get(entry)
        if found is None:
            found = self.index[entry] = len(self.entries)
            self.entries.append(entry)
            self.names.append(name)
        return found

    def of_state(self, state: str) -> int:
        name, tags = _translated(state)
        return self.of_bedrock(name, tuple(sorted(tags.items())))


def chunk_key(cx: int, cz: int) -> bytes:
    """An overworld chunk's key prefix: x and z as little-endian ``int32``.

    >>> chunk_key(-1, 2).hex()
    'ffffffff02000000'
    """
    return struct.pack("<ii", cx, cz)


class _Chunks:
    """The records of the reached chunks, read from the open database."""

    def __init__(self, db) -> None:
        self.db = db

    def get(self, key: bytes) -> bytes | None:
        try:
            return self.db.get(key)
        except KeyError:
            return None


def _check_chunks(chunks: _Chunks, box: Box) -> None:
    """Refuse a box reaching chunks the world has not generated, or generated before 1.18.30,
    or not finished."""
    missing = []
    for cx, cz in box.chunks():
        key = chunk_key(cx, cz)
        version = chunks.get(key + VERSION) or chunks.get(key + LEGACY_VERSION)
        where = f"chunk {cx}, {cz}"
        if not version:
            missing.append((cx, cz))
        elif version[0] < FIRST_CHUNK_VERSION:
            raise BlockmazeError(f"{where} was saved by a Minecraft before 1.18.30 (chunk version "
                                 f"{version[0]}): open the world in a newer release and walk there "
                                 "once, then build into it")
        else:
            finalized = chunks.get(key + FINALIZED)
            if finalized is not None and finalized[:4] != struct.pack("<i", 2):
                raise BlockmazeError(f"{where} is not fully generated: walk there in the game "
                                     "once, or choose --at among generated chunks")
    if missing:
        raise unexplored(box, missing)


def ground(chunks: _Chunks, box: Box) -> int:
    """The y one above the ground under the box: the median of its columns' heights in the
    chunks' Data3D heightmaps (counted from the world's floor, y = -64)."""
    heights = []
    for cx, cz in box.chunks():
        data = chunks.get(chunk_key(cx, cz) + DATA_3D)
        if data is None or len(data) < 512:
            raise BlockmazeError(f"chunk {cx}, {cz} has no heightmap to find the ground by: "
                                 "give --y")
        column = np.frombuffer(data, "<i2", 256).reshape(16, 16)  # z, x
        z0, x0 = max(box.z - cz * 16, 0), max(box.x - cx * 16, 0)
        z1, x1 = min(box.z + box.length - cz * 16, 16), min(box.x + box.width - cx * 16, 16)
        heights.append(column[z0:z1, x0:x1].ravel())
    return MIN_Y + int(np.median(np.concatenate(heights)))


def edit_chunk(chunks: _Chunks, cx: int, cz: int, box: Box, ids: np.ndarray, states: States,
               entities: list) -> dict[bytes, bytes | None]:
    """The chunk's new records (None: a record removed), the maze merged in (see the module
    docstring for what is kept)."""
    key = chunk_key(cx, cz)
    x0, x1 = max(box.x, cx * 16), min(box.x + box.width, cx * 16 + 16)
    z0, z1 = max(box.z, cz * 16), min(box.z + box.length, cz * 16 + 16)
    sy0, sy1 = box.y >> 4, (box.y + box.height - 1) >> 4
    out: dict[bytes, bytes | None] = {}
    solid = np.zeros((16, 16, (sy1 - sy0 + 1) * 16), dtype=bool)  # x, z, y of the reached sub-chunks
    for sy in range(sy0, sy1 + 1):
        name = key + SUBCHUNK + struct.pack("b", sy)
        where = f"sub-chunk {cx}, {sy}, {cz}"
        old = chunks.get(name)
        if old is None:
            layers = [Layer(np.zeros(4096, np.uint32), [states.entries[0]], [AIR])]
        else:
            layers = read_subchunk(old, where)[1] or [
                Layer(np.zeros(4096, np.uint32), [states.entries[0]], [AIR])]
        y0, y1 = max(box.y, sy * 16), min(box.y + box.height, sy * 16 + 16)
        inside = (slice(x0 - cx * 16, x1 - cx * 16), slice(z0 - cz * 16, z1 - cz * 16),
                  slice(y0 - sy * 16, y1 - sy * 16))
        maze = ids[y0 - box.y:y1 - box.y, z0 - box.z:z1 - box.z, x0 - box.x:x1 - box.x]
        kept = []
        for number, layer in enumerate(layers):
            base = len(layer.entries)
            if number == 0:  # the blocks: the maze's in the box
                entries, names = layer.entries + states.entries, layer.names + states.names
                placed = maze.transpose(2, 1, 0) + base
            else:  # what stands in them: nothing in the box
                entries, names = layer.entries + [states.entries[0]], layer.names + [AIR]
                placed = base
            indices = layer.indices.reshape(16, 16, 16).copy()
            indices[inside] = placed
            merged = Layer(indices.ravel(), entries, names)
            air = np.array([n == AIR for n in names])
            if number == 0:
                solid[:, :, (sy - sy0) * 16:(sy - sy0 + 1) * 16] = ~air[indices]
                kept.append(merged)
            elif not air[indices].all():
                kept.append(merged)
        if old is None and len(kept) == 1 and not solid[:, :, (sy - sy0) * 16:(sy - sy0 + 1) * 16].any():
            continue  # (air before, air now: the game reads no record as air)
        out[name] = write_subchunk(sy, kept)
    data_3d = chunks.get(key + DATA_3D)
    if data_3d is not None and len(data_3d) >= 512:
        out[key + DATA_3D] = _heights(data_3d, solid, sy0, (x0 - cx * 16, x1 - cx * 16),
                                      (z0 - cz * 16, z1 - cz * 16)) + data_3d[512:]
    blocks = _block_entities(chunks.get(key + BLOCK_ENTITIES), box, cx, cz, entities)
    if blocks is not None:
        out[key + BLOCK_ENTITIES] = blocks or None
    if chunks.get(key + CHECKSUMS) is not None:
        out[key + CHECKSUMS] = None  # (hashes of the records changed here: no longer true)
    return out


def _heights(data_3d: bytes, solid: np.ndarray, sy0: int, xs: tuple[int, int],
             zs: tuple[int, int]) -> bytes:
    """The Data3D heightmap (256 ``int16``, z then x, from the world's floor) with the columns
    in the box set by ``solid`` (x, z, y of the sub-chunks the box reaches, from ``sy0``): a
    height above those sub-chunks is kept, one in them is one above their highest block, and
    one below them stays where it was."""
    heights = np.frombuffer(data_3d, "<i2", 256).reshape(16, 16).astype(np.int32)  # z, x
    bottom = sy0 * 16 - MIN_Y
    old = heights[zs[0]:zs[1], xs[0]:xs[1]]
    column = solid[xs[0]:xs[1], zs[0]:zs[1]].transpose(1, 0, 2)  # z, x, y
    highest = column.shape[2] - np.argmax(column[:, :, ::-1], axis=2)  # one above its top block
    found = np.where(column.any(axis=2), bottom + highest, np.minimum(old, bottom))
    old[...] = np.where(old > bottom + solid.shape[2], old, found)
    return heights.astype("<i2").tobytes()


def _block_entities(old: bytes | None, box: Box, cx: int, cz: int, entities: list) -> bytes | None:
    """The chunk's block entities record: the old ones outside the box byte for byte, then the
    maze's in this chunk (None: the chunk had none and gets none)."""
    kept = []
    if old:
        stream = io.BytesIO(old)
        while stream.tell() < len(old):
            start = stream.tell()
            try:
                tag = nbtlib.File.parse(stream, byteorder="little")
                place = int(tag["x"]), int(tag["y"]), int(tag["z"])
            except Exception as error:  # nbtlib raises plain exceptions on broken input
                raise BadFileError(f"chunk {cx}, {cz}: its block entities are not little-endian "
                                   f"NBT ({type(error).__name__}: {error})") from None
            if not box.holds(*place):
                kept.append(old[start:stream.tell()])
    for x, layer, z, tag in entities:
        if (box.x + x) >> 4 == cx and (box.z + z) >> 4 == cz:
            tag["x"], tag["y"], tag["z"] = Int(box.x + x), Int(box.y + layer), Int(box.z + z)
            kept.append(_nbt(tag))
    if old is None and not kept:
        return None
    return b"".join(kept)


# --- the writer ------------------------------------------------------------------------------

def recover(folder: str | os.PathLike) -> list[str]:
    """Remove what runs killed in the middle left (a backup half made, in the world folder or in
    its backups' folder); their names. Nothing else is to finish: a change whose batch LevelDB's
    log does not hold whole is dropped by LevelDB itself when it opens the database. The caller
    holds the world's lock (:func:`~.into.world_lock` on :data:`DB_LOCK`).

    >>> import tempfile
    >>> recover(tempfile.mkdtemp())
    []
    """
    folder = Path(folder)
    return remove_leftovers(folder, any_age=True) + remove_leftovers(folder / BACKUPS, any_age=True)


def open_world_db(folder: Path):
    """The world's LevelDB, opened as the game opens it (its ``db/LOCK`` taken); one line when
    the extra is missing or LevelDB refuses it."""
    try:
        from leveldb import LevelDB, LevelDBException
    except ImportError:
        raise BlockmazeError(MISSING.replace("writing a Bedrock world (.mcworld)",
                                             "building into a Bedrock world")) from None
    try:
        return LevelDB(str(folder / "db"))
    except LevelDBException as error:
        text = _message(error)
        if "lock" in text.lower():
            raise OutputError(f"{folder} is open in Minecraft (another program holds its "
                              f"{DB_LOCK}): close the world or stop the server, then run again") from None
        if text.startswith("IO error"):  # (opening replays the log into a table: a full disk)
            raise OutputError(f"cannot open {folder / 'db'}: {text.rsplit(': ', 1)[-1]}") from None
        raise BadFileError(f"{folder / 'db'}: LevelDB cannot open it ({text})") from None


def _message(error: Exception) -> str:
    """LevelDB's message of one of its errors.

    >>> _message(Exception(b"IO error: db/000012.log: No space left on device"))
    'IO error: db/000012.log: No space left on device'
    """
    text = error.args[0] if error.args else error
    return text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)


def write_into_bedrock(bands: Iterable[np.ndarray] | np.ndarray, target: str | os.PathLike,
                       theme: Theme, at: tuple[int, int] | None = None, y: int | None = None,
                       seed: int | None = None, backup: bool = True, terrain: str | None = None,
                       clear: str | None = None) -> None:
    """Build the maze (bands of a (y, z, x) volume, or the volume) into the Bedrock world folder
    ``target``: centred on ``at`` (x, z; default the world's spawn), its lowest layer at ``y``
    (default: one above the ground there, :func:`ground`). The database as it was is kept in
    ``WORLD/blockmaze-backups/STAMP/db/`` unless ``backup`` is False. ``terrain``: flat (the
    default) alone; following the ground (``follow``, ``clear``) is for Java worlds.

    >>> import tempfile, zipfile
    >>> from blockmaze.materials import load_theme
    >>> from blockmaze.export.minecraft.mcworld import write_mcworld
    >>> folder = Path(tempfile.mkdtemp()) / "World"
    >>> with open(folder.parent / "W.mcworld", "wb") as out:
    ...     write_mcworld(np.zeros((1, 32, 32), np.uint8), out, load_theme())
    >>> zipfile.ZipFile(folder.parent / "W.mcworld").extractall(folder)
    >>> write_into_bedrock(np.ones((2, 3, 4), np.uint8), folder, load_theme(), at=(8, 8), y=-60)
    >>> sorted(p.name for p in (folder / "blockmaze-backups").iterdir()) != []
    True
    """
    import warnings

    from ...errors import BlockmazeWarning
    from ...support import stops

    folder = Path(target)
    check_follow(terrain, y, clear)
    if terrain == "follow":
        raise ParameterError("{terrain=follow} follows the ground of Java worlds; a Bedrock world "
                             "takes the maze on one level: leave it out (or give {terrain=flat})")
    check_world(folder)
    if isinstance(bands, np.ndarray):
        bands = volume_slices(bands)
    spawn = level_spawn(folder)
    states = States()
    ids, entities = maze_ids(_checked(bands, theme), theme, seed, DEFAULT_MC_VERSION, states,
                             tag=bedrock_entity)
    height, length, width = ids.shape
    cx, cz = spawn if at is None else at
    box = Box(cx - width // 2, MIN_Y if y is None else y, cz - length // 2, ids.shape)
    with world_lock(folder, DB_LOCK) as fd:  # (held through LevelDB's: see relock)
        recover(folder)
        with contextlib.closing(open_world_db(folder)) as db:
            chunks = _Chunks(db)
            _check_chunks(chunks, box)
            if y is None:
                box.y = ground(chunks, box)
            check_height(height, box.y)
            batch: dict[bytes, bytes | None] = {}
            for place in box.chunks():
                batch.update(edit_chunk(chunks, *place, box, ids, states, entities))
        # the backup while the database is closed (LevelDB's background work, which replaces
        # files, ends as it closes) and the world locked: nothing changes its files. LevelDB's
        # unlock as it closed freed this process's lock too (POSIX locks are the process's)
        relock(fd, folder, DB_LOCK)
        kept = _backup(folder) if backup else None
        stops._mark("backed-up")  # (and here: the backup made, the batch not yet written)
        with contextlib.closing(open_world_db(folder)) as db:
            with stops.deferred() as written:  # (a stop meanwhile: taken once it is written)
                try:
                    db.putBatch(batch)  # the change, whole: one record of LevelDB's log
                except Exception as error:  # LevelDB's own (a full disk): nothing applied
                    raise OutputError(f"cannot write {folder / 'db'}: "
                                      f"{_message(error).rsplit(': ', 1)[-1]}") from None
                written.append(folder / "db")
    warnings.warn(BlockmazeWarning(
        f"built into {folder}: the maze stands at x {box.x}..{box.x + width - 1}, y {box.y}.."
        f"{box.y + height - 1}, z {box.z}..{box.z + length - 1} (Bedrock's blocks); "
        f"{len(box.chunks())} chunks, {len(batch)} records rewritten; "
        + (f"the database as it was is in {kept}" if kept else "no backup kept (--no-backup)")),
        stacklevel=2)


def _backup(folder: Path) -> Path:
    """A copy of the world's database as it is, in ``WORLD/blockmaze-backups/STAMP/db/``: its
    tables hard-linked (LevelDB writes a table once and never changes it), the rest copied."""
    from ...support import stops

    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    parent = folder / BACKUPS
    try:
        parent.mkdir(exist_ok=True)
        final = _free_name(parent, stamp)
        with staged_folder(final) as held:
            copy = held / "db"
            copy.mkdir()
            for path in sorted((folder / "db").iterdir()):
                if path.name in ("LOCK", "LOG", "LOG.old") or not path.is_file():
                    continue
                if path.suffix in (".ldb", ".sst"):
                    try:
                        os.link(path, copy / path.name)
                        continue
                    except OSError:
                        pass
                shutil.copy2(path, copy / path.name)
            stops._mark("backing-up")  # (tests stop a run here: the backup half made)
            (held / "README.txt").write_text(
                "blockmaze --into changed this world's database; this db folder is the database "
                "as it was.\nTo undo it: close the world in the game, then put this db folder in "
                "place of the world's db folder.\n")
    except OSError as error:
        raise OutputError(f"cannot back up {folder}'s database: {error.strerror or error}; "
                          "free some room, or give --no-backup") from None
    return final


INTO_BEDROCK = Writer(Format("into-bedrock", "export.minecraft.into_bedrock", (), "the maze built "
                             "into an existing Bedrock world folder (--into WORLD)", "bands", True),
                      write_into_bedrock, check_size, prepare_theme=checked_theme)
