"""A maze built into an existing Java world folder (``--into WORLD``), all or nothing.

The maze's blocks replace the blocks of its box in the world the user plays; every other block,
block entity, entity, biome and chunk stays as it was. Only the region files the box touches are
rewritten, and in them only the chunks it touches; every other chunk's record is copied as its
bytes (compression and timestamp kept). In a touched chunk (Minecraft Wiki "Chunk format", 1.18+):

* ``DataVersion``, ``Status``, ``structures``, ``LastUpdate``, ``InhabitedTime``,
  ``PostProcessing`` and each section's ``biomes`` are kept; the sections the box reaches get
  their blocks merged (palette and packed indices written anew; a section the chunk did not list,
  which the game reads as air in plains, is added with that biome);
* ``block_entities``, ``block_ticks`` and ``fluid_ticks`` inside the box are replaced by the
  maze's (its spawners and chests), those outside kept;
* ``Heightmaps`` is emptied and ``isLightOn`` set to 0, with every section's ``BlockLight`` and
  ``SkyLight`` dropped: the game computes missing heightmaps and the light of a chunk whose light
  is not on when it loads it (a stale ``isLightOn`` 1 without light shows dark patches).

The world's ``level.dat`` decides the release: the maze is drawn with the block states of the
newest release blockmaze knows whose DataVersion is not newer than the world's, and no chunk's
DataVersion changes. ``entities/`` and ``poi/`` files are not touched.

All or nothing (docs/guides/minecraft.md, "Into the world you play"; the facts and their sources:
docs/minecraft.md §6.1): the new region files are written
beside the old ones as staged files (:mod:`..target`), the old ones hard-linked into a backup
folder (unless ``backup=False``), then a journal naming every rename is written and made durable:
from then on the change is done. The renames follow, and the journal is removed. A run killed
before the journal leaves staged files only (removed by the next run: the world is as it was); one
killed after it is finished by the next ``--into`` or ``info`` of the world (:func:`recover`),
which replays the renames still to do. While a run works it holds the world's ``session.lock``
as the game does (a POSIX lock), so the game cannot open the world meanwhile, and a world the
game holds is refused.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import nbtlib
import numpy as np
from nbtlib import Byte, Compound, Int, List, LongArray, String

from ...errors import BadFileError, BlockmazeError, OutputError
from ...materials import Material, Theme
from .. import Format, Writer, size_limits, volume_slices
from ..target import _making, _umask, open_target, remove_leftovers, staged_prefix, transaction
from .anvil import (MIN_Y, RegionWriter, block_bits, chunk_payload, chunk_nbt,
                    region_records)
from .blockdata import checked_theme, for_release
from .blockentities import SPAWNS, BlockEntity, block_entities
from .packing import pack_rows, unpack_longs
from .palette import block_state_tag, haloed_palette, with_next_rows
from .versions import RELEASES
from .terrain import (AIRS, KEEP, check_follow, column_tops, floor_block, follow, stair_state,
                      stepped)
from .world import FIRST_RELEASE, WORLD_LIMIT, check_height

JOURNAL = "blockmaze-into.journal"  # in the world folder: the renames a run still owes
BACKUPS = "blockmaze-backups"  # in the world folder: one folder per run, its region/ the old files
LOCK = "session.lock"
SECTION = 4096


# --- the world folder: checked, locked, recovered ------------------------------------------

def check_world(folder: Path) -> None:
    """Refuse what is not a Java world folder, each in one line.

    >>> check_world(Path("/nonexistent"))
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: --into /nonexistent: no such world folder
    """
    if not folder.exists():
        raise BlockmazeError(f"--into {folder}: no such world folder")
    if not folder.is_dir():
        raise BlockmazeError(f"--into {folder}: not a folder; --into takes a Java world folder "
                             "(one of .minecraft/saves)")
    if (folder / "db").is_dir():
        raise BlockmazeError(f"--into {folder}: a Bedrock world; write_into builds into Java "
                             "world folders, into_bedrock.write_into_bedrock into Bedrock ones")
    if not (folder / "level.dat").is_file():
        raise BlockmazeError(f"--into {folder}: no level.dat, not a Java world folder")
    if not (folder / "region").is_dir():
        raise BlockmazeError(f"--into {folder}: no region folder, not a Java world folder with "
                             "chunks (open it in the game once)")


@contextlib.contextmanager
def world_lock(folder: Path, name: str = LOCK) -> Iterator[int | None]:
    """Hold the world's ``session.lock`` as the game does (a POSIX ``fcntl`` lock, what Java's
    ``FileChannel.tryLock`` takes on Linux and macOS), or refuse the world when another process
    holds it. The file is made (empty) if the world has none; the lock goes when the block ends.
    ``name``: the lock file in the folder (a Bedrock world's is ``db/LOCK``, LevelDB's own).
    Gives the lock file's descriptor (None where there are no POSIX locks)."""
    try:
        import fcntl  # noqa: F401 (whether the system has POSIX locks)
    except ImportError:  # pragma: no cover - Windows: no POSIX locks
        yield None
        return
    path = folder / name
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise OutputError(f"cannot open {path}: {error.strerror or error}") from None
    try:
        relock(fd, folder, name)
        yield fd
    finally:
        os.close(fd)


def relock(fd: int | None, folder: Path, name: str = LOCK) -> None:
    """Take the POSIX lock on the open lock file ``fd`` (again: a process's locks on a file all
    go when any of its descriptors of it unlocks or closes), or refuse the world."""
    if fd is None:  # pragma: no cover - Windows
        return
    import fcntl

    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise OutputError(f"{folder} is open in Minecraft (another program holds its "
                          f"{name}): close the world or stop the server, then run again") from None


def recover(folder: str | os.PathLike) -> bool:
    """Finish what a run killed after its journal was written left undone (every rename it names
    that is still to do, in order), then remove staged files of runs that are gone (a run killed
    before its journal: the world is as it was). True when a journal was finished. The caller
    holds the world's lock (:func:`world_lock`)."""
    folder = Path(folder)
    journal = folder / JOURNAL
    finished = False
    if journal.is_file():
        try:
            entries = json.loads(journal.read_text())["renames"]
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise BadFileError(f"{journal}: unreadable ({error}); the world's region files are "
                               f"named in it: see docs/minecraft.md to finish by hand") from None
        from ...support import stops

        try:
            with stops.deferred():
                _replay(folder, entries)
        except OSError as error:
            raise OutputError(f"cannot finish the interrupted --into of {folder}: "
                              f"{error.strerror or error}") from None
        finished = True
    remove_leftovers(folder / "region", any_age=True)  # (the lock keeps other runs out)
    remove_leftovers(folder, any_age=True)
    return finished


def _replay(folder: Path, entries: list) -> None:
    """Do the journal's renames still to do (a source already renamed is gone), then remove it."""
    for source, final in entries:
        if os.path.lexists(folder / source):
            (folder / final).parent.mkdir(parents=True, exist_ok=True)  # (blockmaze-backups/)
            os.replace(folder / source, folder / final)
    _sync(folder / "region")
    _sync(folder / BACKUPS)
    os.unlink(folder / JOURNAL)
    _sync(folder)


def finish_unfinished(folder: str | os.PathLike) -> bool:
    """:func:`recover` a world whose folder holds a journal, under its lock (``info`` calls it);
    False, and nothing done, when there is none or the game holds the world."""
    folder = Path(folder)
    if not (folder / JOURNAL).is_file():
        return False
    try:
        with world_lock(folder):
            return recover(folder)
    except OutputError:
        return False


def _sync(folder: Path) -> None:
    """Make the renames in ``folder`` durable (where the system can sync a folder)."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# --- what the world says --------------------------------------------------------------------

def level_facts(folder: Path) -> tuple[int, str, tuple[int, int]]:
    """The world's DataVersion, the release whose block states the maze is drawn with (the
    newest blockmaze knows not newer than the world), and the spawn's (x, z)."""
    from ...readers.nbtread import NbtError, read_nbt

    try:
        data = read_nbt((folder / "level.dat").read_bytes())[1]["Data"]
        dv = int(data["DataVersion"])
        if "SpawnX" in data:
            spawn = (int(data["SpawnX"]), int(data["SpawnZ"]))
        else:
            pos = data["spawn"]["pos"]
            spawn = (int(pos[0]), int(pos[2]))
    except (OSError, NbtError, KeyError, TypeError, ValueError, IndexError) as error:
        raise BadFileError(f"{folder / 'level.dat'}: not a readable level.dat ({error})") from None
    if dv < FIRST_RELEASE:
        raise BlockmazeError(f"--into {folder}: a world of DataVersion {dv}, older than 1.18; "
                             "open it in Minecraft 1.18 or later once, then build into it")
    name = max((r for r in RELEASES.values() if r.data_version <= dv), key=lambda r: r.data_version).name
    return dv, name, spawn


# --- the maze as global ids ----------------------------------------------------------------

class States:
    """Block states of one run by a global id: keyed by name and sorted properties, so a
    world's palette entry and the maze's state of the same block are one id."""

    def __init__(self) -> None:
        self.tags: list[Compound] = []
        self.names: list[str] = []
        self.index: dict[str, int] = {}

    def of_tag(self, tag) -> int:
        name = str(tag["Name"])
        properties = tag.get("Properties") or {}
        key = name + "[" + ",".join(f"{k}={properties[k]}" for k in sorted(properties)) + "]"
        found = self.index.get(key)
        if found is None:
            found = self.index[key] = len(self.tags)
            self.tags.append(tag)
            self.names.append(name)
        return found

    def of_state(self, state: str) -> int:
        return self.of_tag(block_state_tag(state))


def maze_ids(bands: Iterable[np.ndarray], theme: Theme, seed, release: str, states,
             tag=BlockEntity.tag):
    """The maze as a (y, z, x) volume of global ids (``states.of_state`` of each Java block
    state), and its block entities as ``(x, layer, z, tag(entity))`` relative to its north-west
    bottom corner."""
    parts, entities = [], []
    before = None
    z0 = 0
    for band, after in with_next_rows(bands):
        if band.ndim != 3 or band.dtype != np.uint8:
            raise BlockmazeError(f"a band is a uint8 (y, z, x) array, got {band.dtype} {band.shape}")
        indices, palette = haloed_palette(band, before, after, z0, theme, seed, release)
        ids = np.array([states.of_state(state) for state in palette], dtype=np.int32)
        parts.append(ids[indices])
        if SPAWNS[band].any():
            for entity in block_entities(band, indices, palette, seed, release, (0, z0, 0)):
                layer, z, x = entity.position
                entities.append((x, layer, z0 + z, tag(entity)))
        before = band[:, -1:]
        z0 += band.shape[1]
    if not parts:
        raise BlockmazeError("a maze needs at least one band of blocks")
    return np.concatenate(parts, axis=1), entities


# --- chunks --------------------------------------------------------------------------------

class Box:
    """The maze's box in the world: its north-west bottom corner ``(x, y, z)`` and ``shape``
    (y, z, x)."""

    def __init__(self, x: int, y: int, z: int, shape: tuple[int, ...]):
        self.x, self.y, self.z = x, y, z
        self.height, self.length, self.width = shape

    def holds(self, x: int, y: int, z: int) -> bool:
        return (self.x <= x < self.x + self.width and self.y <= y < self.y + self.height
                and self.z <= z < self.z + self.length)

    def chunks(self) -> list[tuple[int, int]]:
        """The chunks (cx, cz) the box reaches, row by row."""
        return [(cx, cz) for cz in range(self.z >> 4, (self.z + self.length - 1 >> 4) + 1)
                for cx in range(self.x >> 4, (self.x + self.width - 1 >> 4) + 1)]


def read_chunk(record: bytes, where: str) -> nbtlib.File:
    """A chunk record's NBT, typed as it was (nbtlib keeps every tag's type for writing back)."""
    try:
        return nbtlib.File.parse(io.BytesIO(chunk_nbt(record, where)))
    except BlockmazeError:
        raise
    except Exception as error:  # nbtlib's parse errors are of many kinds
        raise BadFileError(f"{where}: not readable NBT ({type(error).__name__}: {error})") from None


def check_chunk(chunk: nbtlib.File, where: str) -> None:
    """Refuse a chunk the maze cannot be merged into: one in the layout before 1.18, one the
    game has not finished generating (it would generate over the maze)."""
    if "Level" in chunk or "sections" not in chunk:
        raise BlockmazeError(f"{where} is in the layout before 1.18: open the world in the game "
                             "and walk there once, then build into it")
    if int(chunk.get("yPos", -4)) != MIN_Y >> 4:
        raise BlockmazeError(f"{where} starts at y {int(chunk['yPos']) * 16}, not {MIN_Y}: worlds "
                             "of another height (a data pack's) are not built into")
    status = str(chunk.get("Status", "")).removeprefix("minecraft:")
    if status != "full":
        raise BlockmazeError(f"{where} is not fully generated (Status {status or 'none'}): walk "
                             "there in the game once, or choose --at among generated chunks")


def ground(chunks: Iterable[tuple[tuple[int, int], dict]], box: Box) -> int:
    """The y one above the ground under the box: the median over its columns of the game's
    ``MOTION_BLOCKING_NO_LEAVES`` heightmap (else ``MOTION_BLOCKING``, else ``WORLD_SURFACE``),
    which counts from the world's bottom; a chunk without heightmaps (one an earlier ``--into``
    rewrote, before the game opened it) by its highest block that is not air. ``chunks`` gives
    each chunk's root compound as values (:func:`~blockmaze.readers.nbtread.read_nbt`)."""
    heights = []
    for (cx, cz), root in chunks:
        maps = root.get("Heightmaps") or {}
        name = next((n for n in ("MOTION_BLOCKING_NO_LEAVES", "MOTION_BLOCKING", "WORLD_SURFACE")
                     if n in maps and len(maps[n])), None)
        if name is None:
            column = _surface(root)
        else:
            longs = np.asarray(maps[name]).astype(np.int64)
            bits = 64 // -(-256 // len(longs))  # 256 values, none across two longs: 9 bits in 37
            column = unpack_longs(longs, bits, 256).reshape(16, 16)  # z, x
        z0, x0 = max(box.z - cz * 16, 0), max(box.x - cx * 16, 0)
        z1, x1 = min(box.z + box.length - cz * 16, 16), min(box.x + box.width - cx * 16, 16)
        heights.append(column[z0:z1, x0:x1].ravel())
    return MIN_Y + int(np.median(np.concatenate(heights)))


def _surface(root: dict) -> np.ndarray:
    """A chunk's ``WORLD_SURFACE`` (z, x) from its sections: one above its highest block that is
    not air, counted from the world's bottom (0 for a column of air)."""
    return _tops(root, lambda names: np.array([name not in AIRS for name in names]))[0]


def _tops(root: dict, *counted) -> list[np.ndarray]:
    """For each of ``counted`` (a function of a palette's names: which ones count), one above
    each column's highest block that counts (z, x), from the world's bottom (0: none does)."""
    outs = [np.zeros((16, 16), dtype=np.int64) for _ in counted]
    sections = sorted((s for s in root.get("sections", []) if "block_states" in s),
                      key=lambda s: -int(s["Y"]))
    for section in sections:
        palette = section["block_states"]["palette"]
        names = [str(entry.get("Name")) for entry in palette]
        values = None
        if len(palette) > 1:
            values = unpack_longs(np.asarray(section["block_states"]["data"]).astype(np.int64),
                                  block_bits(len(palette)), SECTION)
            values = np.minimum(values, len(palette) - 1)
        for out, counts in zip(outs, counted, strict=True):
            if (out > 0).all():
                continue
            solid = np.asarray(counts(names), dtype=bool)
            blocks = (np.full((16, 16, 16), solid[0]) if values is None
                      else solid[values].reshape(16, 16, 16))
            tops = column_tops(blocks)
            found = (tops > 0) & (out == 0)
            out[found] = int(section["Y"]) * 16 + tops[found] - MIN_Y
        if all((out > 0).all() for out in outs):
            break
    return outs


def footprint_heights(chunks: Iterable[tuple[tuple[int, int], dict]], box: Box,
                      cleared: frozenset[str]) -> tuple[np.ndarray, np.ndarray]:
    """The ground under the box and the top of what is cleared above it, each (z, x) over its
    footprint as the y one above (:mod:`.terrain` says what is ground and what is cleared)."""
    from .terrain import not_ground

    ground = np.zeros((box.length, box.width), dtype=np.int64)
    clear_top = np.zeros_like(ground)
    for (cx, cz), root in chunks:
        tops = _tops(root, lambda names: ~not_ground(names, cleared)[0],
                     lambda names: ~not_ground(names, cleared)[1])
        z0, x0 = max(box.z - cz * 16, 0), max(box.x - cx * 16, 0)
        z1, x1 = min(box.z + box.length - cz * 16, 16), min(box.x + box.width - cx * 16, 16)
        at = np.s_[cz * 16 + z0 - box.z:cz * 16 + z1 - box.z, cx * 16 + x0 - box.x:cx * 16 + x1 - box.x]
        ground[at] = tops[0][z0:z1, x0:x1]
        clear_top[at] = tops[1][z0:z1, x0:x1]
    return ground + MIN_Y, clear_top + MIN_Y


def edit_chunk(chunk: nbtlib.File, cx: int, cz: int, box: Box, ids: np.ndarray, states: States,
               entities: list, where: str) -> None:
    """Merge the maze's blocks (``ids``, global ids of the box) into one chunk in place (see
    the module docstring for what is kept)."""
    x0, x1 = max(box.x, cx * 16), min(box.x + box.width, cx * 16 + 16)
    z0, z1 = max(box.z, cz * 16), min(box.z + box.length, cz * 16 + 16)
    by_y = {}
    kept = []
    for section in chunk["sections"]:
        for light in ("BlockLight", "SkyLight"):
            section.pop(light, None)
        if "block_states" not in section:
            continue  # (held only light, which the game computes again)
        by_y[int(section["Y"])] = section
        kept.append(section)
    for sy in range(box.y >> 4, (box.y + box.height - 1 >> 4) + 1):
        y0, y1 = max(box.y, sy * 16), min(box.y + box.height, sy * 16 + 16)
        section = by_y.get(sy)
        if section is None:  # not listed: the game reads it as air, in plains
            section = Compound({"Y": Byte(sy), "biomes": Compound({
                "palette": List[String]([String("minecraft:plains")])}),
                "block_states": Compound({"palette": List[Compound]([Compound({
                    "Name": String("minecraft:air")})])})})
            kept.append(section)
        blocks = _section_ids(section["block_states"], states, where)
        part = ids[y0 - box.y:y1 - box.y, z0 - box.z:z1 - box.z, x0 - box.x:x1 - box.x]
        np.copyto(blocks[y0 - sy * 16:y1 - sy * 16, z0 - cz * 16:z1 - cz * 16,
                         x0 - cx * 16:x1 - cx * 16], part, where=part != KEEP)
        section["block_states"] = _section_states(blocks, states)
    kept.sort(key=lambda section: int(section["Y"]))
    chunk["sections"] = List[Compound](kept)
    for key in ("block_entities", "block_ticks", "fluid_ticks"):
        if key in chunk:
            outside = [tag for tag in chunk[key] if not _replaced(box, ids, tag)]
            chunk[key] = List[Compound](outside)
    placed = [Compound({**fields, "x": Int(box.x + x), "y": Int(box.y + layer),
                        "z": Int(box.z + z), "keepPacked": Byte(0)})
              for x, layer, z, fields in entities
              if (box.x + x) >> 4 == cx and (box.z + z) >> 4 == cz]
    if placed:
        chunk["block_entities"] = List[Compound]([*chunk.get("block_entities", []), *placed])
    chunk["Heightmaps"] = Compound()
    chunk["isLightOn"] = Byte(0)


def _replaced(box: Box, ids: np.ndarray, tag) -> bool:
    """Whether the block of a block entity or tick ``tag`` is one the maze replaces."""
    x, y, z = int(tag["x"]), int(tag["y"]), int(tag["z"])
    return box.holds(x, y, z) and ids[y - box.y, z - box.z, x - box.x] != KEEP


def _section_ids(block_states, states: States, where: str) -> np.ndarray:
    """A section's blocks as global ids, (y, z, x) 16 each."""
    palette = block_states["palette"]
    ids = np.array([states.of_tag(tag) for tag in palette], dtype=np.int32)
    if len(ids) == 0:
        raise BadFileError(f"{where}: a section with an empty palette")
    if len(ids) == 1:
        return np.full((16, 16, 16), ids[0], dtype=np.int32)
    values = unpack_longs(np.asarray(block_states["data"]).astype(np.int64), block_bits(len(ids)),
                          SECTION)
    if values.max() >= len(ids):
        raise BadFileError(f"{where}: a block index outside its section's palette")
    return ids[values].reshape(16, 16, 16)


def _section_states(blocks: np.ndarray, states: States) -> Compound:
    """The ``block_states`` compound of a section's global ids: palette and packed indices."""
    used, inverse = np.unique(blocks.ravel(), return_inverse=True)
    out = Compound({"palette": List[Compound]([states.tags[int(g)] for g in used])})
    if len(used) > 1:
        out["data"] = LongArray(pack_rows(inverse.reshape(1, -1), block_bits(len(used)))[0])
    return out


# --- the writer ------------------------------------------------------------------------------

def write_into(bands: Iterable[np.ndarray] | np.ndarray, target: str | os.PathLike, theme: Theme,
               at: tuple[int, int] | None = None, y: int | None = None, seed: int | None = None,
               backup: bool = True, terrain: str | None = None, clear: str | None = None) -> None:
    """Build the maze (bands of a (y, z, x) volume, or the volume) into the Java world folder
    ``target``: centred on ``at`` (x, z; default the world's spawn), its lowest layer at ``y``
    (default: one above the ground there, :func:`ground`). ``terrain="follow"`` puts each block
    column's floor on the ground under it instead (:mod:`.terrain`), clearing what ``clear``
    names above it (``"trees"``, ``"water"`` or ``"trees,water"``). The replaced region files are kept in
    ``WORLD/blockmaze-backups/STAMP/region/`` unless ``backup`` is False. Region files are read,
    merged and written one at a time, so memory holds the maze, one region file and one chunk.

    >>> import tempfile
    >>> from blockmaze.materials import load_theme
    >>> from blockmaze.export.minecraft.world import write_world
    >>> folder = Path(tempfile.mkdtemp()) / "World"
    >>> write_world(np.zeros((1, 32, 32), np.uint8), folder, load_theme())
    >>> write_into(np.ones((2, 3, 4), np.uint8), folder, load_theme(), at=(8, 8), y=-60, backup=False)
    >>> sorted(p.name for p in folder.iterdir())
    ['level.dat', 'region', 'session.lock']
    """
    import warnings

    from ...errors import BlockmazeWarning

    folder = Path(target)
    cleared = check_follow(terrain, y, clear)
    check_world(folder)
    if isinstance(bands, np.ndarray):
        bands = volume_slices(bands)
    with world_lock(folder):
        recover(folder)
        dv, release, spawn = level_facts(folder)
        theme = for_release(theme, release)
        states = States()
        ids, entities = maze_ids(bands, theme, seed, release, states)
        height, length, width = ids.shape
        cx, cz = spawn if at is None else at
        box = Box(cx - width // 2, MIN_Y if y is None else y, cz - length // 2, ids.shape)
        regions = _regions(folder, box)
        line = ""
        if terrain == "follow":
            stair = stair_state(theme.minecraft.get(Material.STAIRS))
            ids, line = _followed(folder, regions, box, ids, states, entities, cleared,
                                  None if stair is None else lambda facing: states.of_state(stair(facing)))
            height = box.height
        elif y is None:
            box.y = ground(_heightmaps(folder, regions), box)
        check_height(height, box.y)

        def merged(chunk: nbtlib.File, place: tuple[int, int], where: str) -> bytes:
            check_chunk(chunk, where)
            edit_chunk(chunk, place[0], place[1], box, ids, states, entities, where)
            buffer = io.BytesIO()
            chunk.write(buffer)
            return buffer.getvalue()

        kept = _commit(folder, regions, merged, backup)
    touched = sum(len(places) for places in regions.values())
    warnings.warn(BlockmazeWarning(
        f"built into {folder}: the maze stands at x {box.x}..{box.x + width - 1}, y {box.y}.."
        f"{box.y + height - 1}, z {box.z}..{box.z + length - 1} (Minecraft {release}'s blocks); "
        f"{line}"
        f"{touched} chunks in {len(regions)} region files rewritten; "
        + (f"the replaced files are in {kept}" if kept else "no backup kept (--no-backup)")),
        stacklevel=2)


def _followed(folder: Path, regions: dict, box: Box, ids: np.ndarray, states: States,
              entities: list, cleared: frozenset[str], stair) -> tuple[np.ndarray, str]:
    """The maze made to follow the ground under ``box`` (whose y and height become the followed
    volume's), and what was done, for the run's line."""
    ground, clear_top = footprint_heights(_heightmaps(folder, regions), box, cleared)
    air = states.of_state("minecraft:air")
    filler = floor_block(ids, air)
    maze = ids
    box.y, ids, floors = follow(maze, ground, clear_top, filler, air)
    stepped(ids, box.y, floors, maze, filler, air, stair)
    entities[:] = [(x, layer + int(floors[z, x]) - box.y, z, fields)
                   for x, layer, z, fields in entities]
    box.height = ids.shape[0]
    filled, cut = int(np.maximum(floors - ground, 0).max()), int(np.maximum(ground - floors, 0).max())
    what = " and ".join(sorted(cleared)) + " cleared" if cleared else "trees and water kept"
    return ids, (f"the floor follows the ground from y {int(floors.min())} to {int(floors.max())}, "
                 f"steps of one block at most{', stairs up them' if stair else ''} (levelled: "
                 f"filled up to {filled}, "
                 f"cut down to {cut} blocks; {what}); ")


def _region_path(folder: Path, key: tuple[int, int]) -> Path:
    return folder / "region" / f"r.{key[0]}.{key[1]}.mca"


def _regions(folder: Path, box: Box) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """The chunks the box reaches by region file, each listed in its region's header; a chunk the
    world has not generated is refused (its region file's header read, nothing more)."""
    regions: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for cx, cz in box.chunks():
        regions.setdefault((cx >> 5, cz >> 5), []).append((cx, cz))
    missing = []
    for key, places in regions.items():
        path = _region_path(folder, key)
        header = b""
        if path.is_file() and not path.is_symlink():
            try:
                with open(path, "rb") as opened:
                    header = opened.read(4096)
            except OSError as error:
                raise OutputError(f"cannot read {path}: {error.strerror or error}") from None
        locations = np.frombuffer(header, dtype=">u4") if len(header) == 4096 else np.zeros(1024, ">u4")
        missing += [(cx, cz) for cx, cz in places if not locations[(cx & 31) + (cz & 31) * 32]]
    if missing:
        raise unexplored(box, missing)
    return regions


def unexplored(box: Box, missing: list[tuple[int, int]]) -> BlockmazeError:
    """The one line for a box reaching chunks (cx, cz) the world has not generated."""
    xs, zs = [c[0] for c in missing], [c[1] for c in missing]
    return BlockmazeError(
        f"the maze's box (x {box.x}..{box.x + box.width - 1}, z {box.z}..{box.z + box.length - 1}) "
        f"reaches {len(missing)} chunks the world has not generated (chunks x {min(xs)}..{max(xs)}, "
        f"z {min(zs)}..{max(zs)}): choose --at inside the explored world, or walk there in the game first")


def _heightmaps(folder: Path, regions: dict) -> Iterator[tuple[tuple[int, int], dict]]:
    """Each reached chunk's root, read with the streaming NBT reader (values only)."""
    from ...readers.nbtread import NbtError, read_nbt

    for key, places in regions.items():
        path = _region_path(folder, key)
        records = region_records(path.read_bytes(), str(path))
        for cx, cz in places:
            where = f"chunk {cx}, {cz} (region/{path.name})"
            try:
                root = read_nbt(chunk_nbt(records[(cx & 31) + (cz & 31) * 32][0], where))[1]
            except NbtError as error:
                raise BadFileError(f"{where}: {error}") from None
            yield (cx, cz), root


def _commit(folder: Path, regions: dict, merged, backup: bool) -> Path | None:
    """Write the touched region files beside the old ones (each chunk the box reaches through
    ``merged``, every other record copied), back the old ones up, write the journal, rename (the
    module docstring says why each step comes where it does)."""
    from ...support import stops

    now = int(time.time())
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now))
    with transaction(own=True) as run:  # committed here, under the world's lock
        for key, places in sorted(regions.items()):
            path = _region_path(folder, key)
            try:
                data = path.read_bytes()
            except OSError as error:
                raise OutputError(f"cannot read {path}: {error.strerror or error}") from None
            records = region_records(data, str(path))
            del data
            reached = set(places)
            with open_target(path) as file:
                region = RegionWriter(file)
                for slot, (record, stamped) in sorted(records.items()):
                    place = ((key[0] << 5) + (slot & 31), (key[1] << 5) + (slot >> 5))
                    if place in reached:
                        where = f"chunk {place[0]}, {place[1]} (region/{path.name})"
                        nbt = merged(read_chunk(record, where), place, where)
                        try:
                            region.add_compressed(place[0], place[1], chunk_payload(nbt))
                        except ValueError as error:  # over 1 MiB: a .mcc file, never written here
                            raise BlockmazeError(f"{where}: {error}; choose another --at") from None
                        region.timestamps[slot] = now
                    else:
                        region.add_record(slot, record)
                        region.timestamps[slot] = stamped
                region.close()
        held = None
        if backup:
            held = _backup_folder(folder, run, [final for _, final in run.staged])
        final_backup = _free_name(folder / BACKUPS, stamp)

        def journal(run) -> None:
            renames = [[os.path.relpath(staged, folder), os.path.relpath(final, folder)]
                       for staged, final in run.staged]
            if held is not None:
                renames.append([os.path.relpath(held, folder), os.path.relpath(final_backup, folder)])
            _write_journal(folder, renames)
            stops._mark("journaled")  # (tests stop a run here: BLOCKMAZE_STOPS_PAUSE=journaled)
            owned = {str(staged) for staged, _ in run.staged} | {str(held)}
            run.temporaries[:] = [t for t in run.temporaries if str(t) not in owned]

        def settled() -> None:
            stops._mark("renamed")  # (the region files renamed, the backup and journal not yet)
            entries = json.loads((folder / JOURNAL).read_text())["renames"]
            _replay(folder, entries)

        run.journal = journal
        run.settled.append(settled)
    return final_backup if backup else None


def _backup_folder(folder: Path, run, finals: list[Path]) -> str:
    """A staged folder in the world holding ``region/`` with the files about to be replaced,
    hard-linked (no copy: the rename gives the region's name to the new file, the old one lives
    on under the backup's name), or copied where links are refused."""
    import shutil
    import tempfile

    from ...support import stops

    with stops.deferred(), _making:  # made and noted as one step
        held = tempfile.mkdtemp(prefix=staged_prefix(), suffix=".part", dir=folder)
        run.temporaries.append(held)
    os.chmod(held, 0o777 & ~_umask())  # (mkdtemp makes it for its owner alone)
    try:
        (Path(held) / "region").mkdir()
        for final in finals:
            if final.exists():
                copy = Path(held) / "region" / final.name
                try:
                    os.link(final, copy)
                except OSError:
                    shutil.copy2(final, copy)
        (Path(held) / "README.txt").write_text(
            "blockmaze --into replaced these region files of this world.\n"
            "To undo it: close the world in the game, then copy region/*.mca from here back into "
            "the world's region/ folder.\n")
    except OSError as error:
        raise OutputError(f"cannot back up {folder}'s region files: {error.strerror or error}; "
                          "free some room, or give --no-backup") from None
    return held


def _free_name(parent: Path, stamp: str) -> Path:
    """``parent/stamp``, or ``stamp-2``... when a run of the same second took it."""
    name, number = parent / stamp, 1
    while name.exists():
        number += 1
        name = parent / f"{stamp}-{number}"
    return name


def _write_journal(folder: Path, renames: list) -> None:
    """The journal, whole and durable before it bears its name: the change's point of no return."""
    import tempfile

    try:
        handle, temporary = tempfile.mkstemp(prefix=staged_prefix(), suffix=".part", dir=folder)
    except OSError as error:
        raise OutputError(f"cannot write {folder / JOURNAL}: {error.strerror or error}") from None
    try:
        with os.fdopen(handle, "w") as out:
            json.dump({"blockmaze": "into", "renames": renames}, out)
            out.flush()
            os.fsync(out.fileno())
        _sync(folder / "region")
        os.replace(temporary, folder / JOURNAL)
        _sync(folder)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise OutputError(f"cannot write {folder / JOURNAL}: {error.strerror or error}") from None
        raise


check_size = size_limits("a world", max_side=WORLD_LIMIT)

INTO = Writer(Format("into", "export.minecraft.into", (), "the maze built into an existing Java "
                     "world folder (--into WORLD)", "bands", True),
              write_into, check_size, prepare_theme=checked_theme, java_states=True)
