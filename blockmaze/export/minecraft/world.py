"""A Java Edition world save (1.18 to 1.21.10): ``level.dat`` and ``region/r.X.Z.mca``, band by band.

The maze's north-west corner is block x = 0, z = 0, its lowest layer at ``y``. It is written one
*band* at a time (16 block rows along z: one row of chunks), so memory holds one band, one row of
chunks and the region files' headers, never the whole maze. Around the maze the game's own flat
generator makes the same terrain as the chunks written here:

* ``void``: no blocks at all, biome ``the_void`` (the flat generator with one layer of air);
* ``flat``: bedrock at y = -64 and stone up to ``y - 1``;
* ``grass``: bedrock, dirt, and grass blocks at ``y - 1`` (a classic superflat).

``level.dat`` (gzipped NBT, root compound ``Data``; Minecraft Wiki "Java Edition level format"):
``DataVersion`` and ``Version`` {``Id``, ``Name``, ``Series``, ``Snapshot``} of the chosen
release, ``version`` 19133 (the NBT layout of Anvil), ``initialized`` 1 (so the game keeps the
spawn it is given instead of searching for one), the spawn as ``SpawnX/Y/Z`` + ``SpawnAngle``
(through 1.21.8) and as ``spawn`` {``dimension``, ``pos``, ``yaw``, ``pitch``} (1.21.9's
``LevelData.RespawnData``) -- both are written, a release ignores the keys it does not know --
``GameRules`` as strings (``doMobSpawning``, ``doDaylightCycle``, ``doWeatherCycle``,
``spawnRadius`` 0 so players appear on the spot), ``DayTime``, and ``WorldGenSettings`` with
the three vanilla dimensions (overworld: the flat generator with the layers above; nether and
end: their vanilla noise generators), so the game neither calls the world experimental nor
generates normal terrain next to the maze. 1.18 and 1.18.1 read the flat settings' structures
from ``structures``, later releases from ``structure_overrides``; 1.18.x noise generators and
the end's biome source carry a ``seed``, later releases dropped it: all are written, since a
release's codecs ignore fields they do not know.

Releases: 1.18 (the first with the 1.18 chunk layout of :mod:`.anvil`) through 1.21.10.
1.21.11 renamed every game rule (``minecraft:spawn_mobs``...) and 26.1's level.dat drops
``WorldGenSettings`` and ``GameRules`` (``difficulty_settings``, ``spawn`` only), so newer
releases are refused: write 1.21.10 and let the newer game upgrade the world, as it does
any older save.

Example
-------
>>> import tempfile, pathlib
>>> from blockmaze.materials import load_theme
>>> folder = pathlib.Path(tempfile.mkdtemp()) / "Maze"
>>> write_world(np.ones((2, 3, 4), np.uint8), folder, load_theme())
>>> sorted(p.name for p in folder.rglob("*"))
['level.dat', 'r.0.0.mca', 'region']
"""

from __future__ import annotations

import io
import os
import shutil
import tempfile
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

import numpy as np
from nbtlib import Byte, Compound, Double, Float, Int, IntArray, List, Long, String

from ...errors import BlockmazeError
from ...materials import Material, Theme
from .. import register_writer, size_limits, volume_slices
from .blockdata import release_theme
from ..ahead import DEPTH, worked_ahead
from ..zipped import zip_entry
from .anvil import MAX_Y, MIN_Y, ChunkBuilder, RegionWriter, chunk_payload
from .blockentities import SPAWNS, block_entities
from .nbt import write_gzipped
from .palette import haloed_palette, with_next_rows
from .placement import YAW, player_spot
from .versions import DEFAULT_MC_VERSION, release
from ..defaults import TERRAIN, TIME, Y
from ..target import STDOUT, is_file_object, target_path

TERRAINS = ("void", "flat", "grass")
FIRST_RELEASE = 2860  # 1.18
LAST_RELEASE = 4556  # 1.21.10
BAND = 16  # block rows per band: one row of chunks
WORLD_LIMIT = 29_999_984  # the world border's reach from 0
# Bands made (one thread) and turned into chunk records (another) ahead of the writing thread
# (0: all in the writing thread). Chunks are written in the same order either way, so the bytes never
# depend on it (tests/test_world.py compares).
AHEAD = DEPTH


def world_release(mc_version: str) -> int:
    """The DataVersion to write for ``mc_version``, or an error for releases outside 1.18-1.21.10.

    >>> world_release("1.20.4")
    3700
    """
    dv = release(mc_version).data_version
    if not FIRST_RELEASE <= dv <= LAST_RELEASE:
        raise BlockmazeError(
            f"world saves are written for Minecraft 1.18 to 1.21.10, not {mc_version}; "
            "choose one of those (a newer game upgrades the world when it opens it)")
    return dv


def check_height(height: int, y: int) -> None:
    """Refuse a maze ``height`` blocks high (floor and roof included) whose lowest layer at
    ``y`` leaves the world's height, -64 to 319 in Java and Bedrock worlds alike.

    >>> check_height(4, 316)
    >>> check_height(4, 317)
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: a maze 4 blocks high at y = 317 leaves the world's height (-64 to 319); choose --y from -64 to 316
    >>> check_height(401, -60)
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: a maze 401 blocks high (its floor and roof included) is taller than the world's 384 blocks (-64 to 319): lower --height
    """
    room = MAX_Y - MIN_Y + 1
    if height > room:
        raise BlockmazeError(f"a maze {height} blocks high (its floor and roof included) is taller "
                             f"than the world's {room} blocks ({MIN_Y} to {MAX_Y}): lower --height")
    if y < MIN_Y or y + height - 1 > MAX_Y:
        raise BlockmazeError(f"a maze {height} blocks high at y = {y} leaves the world's height "
                             f"({MIN_Y} to {MAX_Y}); choose --y from {MIN_Y} to {MAX_Y - height + 1}")


def terrain_layers(terrain: str, y: int) -> list[tuple[str, int]]:
    """The flat generator's layers (block, thickness) from y = -64 up to ``y - 1``.

    >>> terrain_layers("grass", -60)
    [('minecraft:bedrock', 1), ('minecraft:dirt', 2), ('minecraft:grass_block', 1)]
    >>> terrain_layers("void", 10)
    []
    """
    if terrain == "follow":
        from .terrain import no_follow_here

        raise no_follow_here("a new world")
    if terrain not in TERRAINS:
        raise BlockmazeError(f"unknown terrain {terrain!r}; choose one of: {', '.join(TERRAINS)}")
    depth = y - MIN_Y
    if terrain == "void":
        return []
    if depth < 2:
        raise BlockmazeError(f"--terrain {terrain} needs the maze at y >= {MIN_Y + 2} "
                             f"(bedrock and ground below it), got y = {y}")
    if terrain == "flat":
        return [("minecraft:bedrock", 1), ("minecraft:stone", depth - 1)]
    layers = [("minecraft:bedrock", 1), ("minecraft:dirt", depth - 2), ("minecraft:grass_block", 1)]
    return [layer for layer in layers if layer[1] > 0]


def _stand(blocks: np.ndarray) -> np.ndarray:
    """Where a player can stand in (y, z, x) blocks: air, air above (or the top), and a block
    below (or the ground under the lowest layer)."""
    air = blocks == Material.AIR
    stand = air.copy()
    stand[:-1] &= air[1:]
    stand[1:] &= ~air[:-1]
    return stand


def _first_place(stand: np.ndarray, z0: int, x0: int) -> tuple[int, int, int] | None:
    """(x, layer, z) of the first column, in (z, x) order, with a place to stand (its lowest)."""
    columns = stand.any(axis=0)
    if not columns.any():
        return None
    z, x = np.argwhere(columns)[0]
    return x0 + int(x), int(np.flatnonzero(stand[:, z, x])[0]), z0 + int(z)


class _Spawn:
    """Where players appear, looked for band by band: above the START block, else in an opening
    of the outer wall (an entrance), else on the first place to stand (air with air above and a
    block or the ground below), each the first in (z, x) order.

    >>> floor, walls = np.full((3, 3), 2, np.uint8), np.ones((3, 3), np.uint8)
    >>> walls[1, 1] = 0   # one open cell in a ring of wall, on a floor
    >>> spawn = _Spawn()
    >>> spawn.look(np.stack([floor, walls]), 0)
    >>> spawn.place(3, 10, 2)
    (1, 11, 1)
    """

    def __init__(self):
        self.start = self.opening = self.first = self.south = None

    def look(self, band: np.ndarray, z0: int) -> None:
        """Look at one band (its first row is row ``z0`` of the maze); only the slices that can
        still change the answer are examined."""
        if self.start is None and (band == Material.START).any():
            stand = _stand(band)
            for layer, z, x in np.argwhere(band == Material.START).tolist():
                above = np.flatnonzero(stand[layer + 1:, z, x])
                if above.size:
                    self.start = (int(x), int(layer + 1 + above[0]), z0 + int(z))
                    break
        if self.first is None:
            self.first = _first_place(_stand(band), z0, 0)
        if self.opening is None:
            if z0 == 0:
                self.opening = _first_place(_stand(band[:, :1]), 0, 0)
            for x in (0, band.shape[2] - 1):
                self.opening = self.opening or _first_place(_stand(band[:, :, x:x + 1]), z0, x)
        last = band.shape[1] - 1
        self.south = _first_place(_stand(band[:, last:]), z0 + last, 0)

    @property
    def opened(self) -> bool:
        """Whether the outer wall has an opening (an entrance) to walk in through."""
        return self.opening is not None or self.south is not None

    def place(self, width: int, y: int, height: int) -> tuple[int, int, int]:
        """The spawn (x, y, z) in the world, the maze's lowest layer at ``y``."""
        found = self.start or self.opening or self.south or self.first
        if found is None:
            return width // 2, y + height, 0  # on top of a maze with no place to stand inside
        return found[0], y + found[1], found[2]


def write_world(
    bands: Iterable[np.ndarray] | np.ndarray,
    target: str | os.PathLike,
    theme: Theme,
    mc_version: str = DEFAULT_MC_VERSION,
    terrain: str = TERRAIN,
    y: int = Y,
    seed: int | None = None,
    mobs: bool = False,
    time: int | None = TIME,
    name: str | None = None,
) -> None:
    """Write a maze (bands of a (y, z, x) volume, or the volume) as a world folder at ``target``.

    The folder must not exist yet (or be empty): a world is never written over. ``terrain`` is
    void, flat or grass; ``y`` the world height of the maze's lowest layer; ``mobs`` allows mob
    spawning; ``time`` fixes the time of day in ticks (None: days pass); ``name`` is the name
    in the world list (default: the folder's name); ``seed`` draws the theme's variants (each
    block's from its position, as every writer does) and the spawners' mobs. The player arrives
    where one who pastes the maze stands (:func:`~.placement.player_spot`): on the ground
    outside, in front of the entrance, facing in (see :func:`arrival`).
    """
    if is_file_object(target) or target is STDOUT:
        raise BlockmazeError("a world is a folder of files: give its name (-o NAME), not standard "
                             "output or a stream")
    target = Path(target)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise BlockmazeError(f"{target} exists already; a world is written to a new (or empty) folder")
    if not target.parent.is_dir():
        raise BlockmazeError(f"cannot write {target}: the folder {target.parent} does not exist")
    data_version = world_release(mc_version)
    layers = terrain_layers(terrain, y)
    from ..target import staged_folder

    with staged_folder(target) as temporary:  # (removed if the run does not finish)
        try:
            _write_folder(bands, temporary, theme, mc_version, data_version, terrain, layers, y,
                          seed, mobs, time, name or target.name)
        except OSError as error:
            from ...errors import OutputError

            raise OutputError(f"cannot write {target}: {error.strerror or error}") from None


def write_world_zip(
    bands: Iterable[np.ndarray] | np.ndarray,
    file: BinaryIO,
    theme: Theme,
    mc_version: str = DEFAULT_MC_VERSION,
    terrain: str = TERRAIN,
    y: int = Y,
    seed: int | None = None,
    mobs: bool = False,
    time: int | None = TIME,
    name: str | None = None,
) -> None:
    """The world of :func:`write_world` as a .zip holding one folder (unzip it into ``saves/``).

    Entries are stored (region chunks are compressed already) with a fixed date, so the same
    maze gives the same bytes.

    >>> import io, zipfile
    >>> from blockmaze.materials import load_theme
    >>> out = io.BytesIO()
    >>> write_world_zip(np.ones((2, 3, 4), np.uint8), out, load_theme(), name="Maze")
    >>> zipfile.ZipFile(out).namelist()
    ['Maze/level.dat', 'Maze/region/r.0.0.mca']
    """
    data_version = world_release(mc_version)
    layers = terrain_layers(terrain, y)
    name = world_name(file, name)
    with tempfile.TemporaryDirectory(prefix=".blockmaze-world.") as folder:
        _write_folder(bands, Path(folder), theme, mc_version, data_version, terrain, layers, y, seed,
                      mobs, time, name)
        with zipfile.ZipFile(file, "w", zipfile.ZIP_STORED) as archive:
            for member in sorted(Path(folder).rglob("*")):
                if member.is_file():
                    info = zip_entry(f"{name}/{member.relative_to(folder).as_posix()}", stored=True)
                    with member.open("rb") as source, archive.open(info, "w", force_zip64=True) as out:
                        shutil.copyfileobj(source, out, 1 << 20)


def world_name(file, name: str | None = None) -> str:
    """The name a world shows in the game's list: ``name``, else the stem of the file it is
    written to (``Maze.zip``: Maze), else "blockmaze".

    >>> world_name(None), world_name(None, "Labyrinth")
    ('blockmaze', 'Labyrinth')
    """
    path = None if file is None else target_path(file)
    return name or (path.stem if path is not None else "blockmaze")


def _write_folder(bands, folder: Path, theme: Theme, mc_version: str, data_version: int,
                  terrain: str, layers: list[tuple[str, int]], y: int, seed, mobs: bool,
                  time: int | None, name: str) -> None:
    if isinstance(bands, np.ndarray):
        bands = volume_slices(bands)
    (folder / "region").mkdir()
    # the game fills missing sections with empty plains ones: all-air sections are left out,
    # except in a void world, whose sections are the_void
    builder = ChunkBuilder(data_version, "minecraft:the_void" if terrain == "void" else "minecraft:plains",
                           empty_sections=terrain == "void")
    shape = [0, 0, 0]  # height, z-rows made so far, width (by the thread working ahead)
    column: list[np.ndarray] = []  # a chunk column's ids with the maze's rows still air
    before: list = [None]  # the last row of the band before (doors on a band's edge face right)

    def with_ids(pair) -> tuple:
        """The band (checked), its first z-row, palette and chunk-column ids (y, 16, x); the
        band comes with the next band's first row, and the last row before it is kept."""
        band, after = pair
        if band.ndim != 3 or band.dtype != np.uint8 or band.shape[1] > BAND:
            raise BlockmazeError(f"a band is a uint8 (y, z, x) array of at most {BAND} z-rows, got {band.dtype} {band.shape}")
        height, z0, width = shape
        if not column:
            height, _, width = band.shape
            shape[0], shape[2] = height, width
            size_limits("a world", max_side=WORLD_LIMIT)(band.shape)
            check_height(height, y)
            column.append(_terrain_column(builder, layers, y, height))
        elif band.shape[0] != height or band.shape[2] != width:
            raise BlockmazeError(f"band {z0 // BAND} is {band.shape}; every band needs {height} layers and {width} columns")
        elif z0 % BAND:
            raise BlockmazeError(f"only the last band may have fewer than {BAND} rows")
        shape[1] += band.shape[1]
        indices, palette = haloed_palette(band, before[0], after, z0, theme, seed)
        before[0] = band[:, -1:]
        states = np.array([builder.id_of(state) for state in palette], dtype=np.uint16)
        ids = np.empty((column[0].size, BAND, -(-width // 16) * 16), dtype=np.uint16)
        ids[:] = column[0][:, None, None]
        ids[y - MIN_Y:y - MIN_Y + height, :band.shape[1], :width] = states[indices]
        return band, z0, indices, palette, ids

    def records(made: tuple) -> tuple:
        """The band, its first z-row and its row of chunks' record payloads, in order of x."""
        band, z0, indices, palette, ids = made
        out, ends = builder.row_bytes(ids, z0 // BAND, _chunk_entities(band, indices, palette, seed, mc_version, z0, y))
        view = memoryview(out)
        return band, z0, [chunk_payload(view[a:b]) for a, b in zip(ends[:-1].tolist(), ends[1:].tolist(), strict=True)]

    spawn = _Spawn()
    spot = player_spot(bands) if isinstance(bands, np.ndarray) else None
    regions: dict[int, tuple[BinaryIO, RegionWriter]] = {}
    # numpy, numba and zlib do the work and release the GIL: bands are made with their ids on one
    # thread and turned into records on a second, ahead of this one, which writes them
    ahead = worked_ahead(worked_ahead(with_next_rows(bands), with_ids, AHEAD), records, AHEAD)
    try:
        for band, z0, payloads in ahead:
            spawn.look(band, z0)
            spot = spot or player_spot(band, 1 << 30)  # streamed: it lies by the first band
            cz = z0 // BAND
            if cz % 32 == 0:
                _close(regions)
            for cx, payload in enumerate(payloads):
                if cx >> 5 not in regions:
                    handle = open(folder / "region" / f"r.{cx >> 5}.{cz >> 5}.mca", "w+b")
                    regions[cx >> 5] = (handle, RegionWriter(handle))
                regions[cx >> 5][1].add_compressed(cx, cz, payload)
    finally:
        ahead.close()  # stops the thread working ahead
        _close(regions)
    height, length, width = shape
    if length == 0:
        raise BlockmazeError("a world needs at least one band of blocks")
    with open(folder / "level.dat", "wb") as out:
        write_gzipped(_level(name, mc_version, data_version, terrain, layers,
                             arrival(spot, spawn.place(width, y, height), y, terrain,
                                     spawn.opened), seed, mobs, time),
                      out, root_name="")


def _terrain_column(builder: ChunkBuilder, layers: list[tuple[str, int]], y: int, height: int) -> np.ndarray:
    """The global ids of a chunk column from y = -64 to the top of the maze's highest section:
    the terrain's layers, then air (the maze's blocks go in above them)."""
    top = (y + height - 1 - MIN_Y) // 16 + 1  # sections written, from the lowest
    column = np.full(top * 16, builder.air, dtype=np.uint16)
    at = 0
    for state, thickness in layers:
        column[at:at + thickness] = builder.id_of(state)
        at += thickness
    return column


def _chunk_entities(band, indices, palette, seed, mc_version: str, z0: int, y: int) -> dict[int, list[bytes]]:
    """The block entities of a band's spawn points (:mod:`~.blockentities`) by chunk column cx,
    as chunk ``block_entities`` compounds: ``id``, world ``x``, ``y``, ``z``, ``keepPacked``,
    the fields."""
    found: dict[int, list[bytes]] = {}
    if not SPAWNS[band].any():
        return found
    for entity in block_entities(band, indices, palette, seed, mc_version, (0, z0, 0)):
        layer, z, x = entity.position
        tag = Compound({**entity.tag(), "x": Int(x), "y": Int(y + layer), "z": Int(z0 + z),
                        "keepPacked": Byte(0)})
        buffer = io.BytesIO()
        tag.write(buffer)
        found.setdefault(x >> 4, []).append(buffer.getvalue())
    return found


def _close(regions: dict) -> None:
    for handle, region in regions.values():
        region.close()
        handle.close()
    regions.clear()


def arrival(spot, inside: tuple[int, int, int], y: int, terrain: str,
            opened: bool = True) -> tuple[int, int, int, float]:
    """Where a player arrives in the world, ``(x, feet y, z, yaw)``: the block outside the maze
    where the player who pastes it stands (``spot``, relative to the maze's north-west bottom
    corner at height ``y``), on the ground there (its top is ``y - 1``), facing in. In a void
    world there is no ground, and a maze with no opening in its outer wall (written without
    ``--entrances``) has no way in from outside: there the player arrives on the place to
    stand ``inside`` (above START, or in an entrance, or the first place in the maze).

    >>> from blockmaze.export.minecraft.placement import Spot
    >>> arrival(Spot(1, -1, 4, "south"), (4, 11, 1), 10, "grass")
    (4, 10, -1, 0.0)
    >>> arrival(Spot(1, -1, 4, "south"), (4, 11, 1), 10, "void")
    (4, 11, 1, 0.0)
    >>> arrival(Spot(1, -1, 4, "south"), (4, 11, 1), 10, "grass", opened=False)
    (4, 11, 1, 0.0)
    """
    yaw = float(YAW[spot.facing])
    if terrain == "void" or not opened:
        return (*inside, yaw)
    return spot.x, y, spot.z, yaw


def _level(name: str, mc_version: str, data_version: int, terrain: str,
           layers: list[tuple[str, int]], arrive: tuple[int, int, int, float], seed, mobs: bool,
           time: int | None) -> Compound:
    """The level.dat root: see the module docstring for the facts behind each field."""
    flat_layers = layers or [("minecraft:air", 1)]
    rules = {
        "doMobSpawning": mobs, "doPatrolSpawning": mobs, "doTraderSpawning": mobs,
        "doInsomnia": mobs, "doWardenSpawning": mobs,
        "doDaylightCycle": time is None, "doWeatherCycle": time is None,
    }
    game_rules = {key: String("true" if value else "false") for key, value in rules.items()}
    game_rules["spawnRadius"] = String("0")
    flat = Compound({
        "type": String("minecraft:flat"),
        "settings": Compound({
            "biome": String("minecraft:the_void" if terrain == "void" else "minecraft:plains"),
            "features": Byte(0),
            "lakes": Byte(0),
            "layers": List[Compound]([Compound({"block": String(b), "height": Int(h)}) for b, h in flat_layers]),
            "structure_overrides": List[String](),
            "structures": Compound({"structures": Compound()}),
        }),
    })
    world_seed = Long(0 if seed is None else int(seed) % (1 << 63))
    dimensions = Compound({
        "minecraft:overworld": Compound({"type": String("minecraft:overworld"), "generator": flat}),
        "minecraft:the_nether": Compound({"type": String("minecraft:the_nether"), "generator": Compound({
            "type": String("minecraft:noise"), "settings": String("minecraft:nether"), "seed": world_seed,
            "biome_source": Compound({"type": String("minecraft:multi_noise"), "preset": String("minecraft:nether")}),
        })}),
        "minecraft:the_end": Compound({"type": String("minecraft:the_end"), "generator": Compound({
            "type": String("minecraft:noise"), "settings": String("minecraft:end"), "seed": world_seed,
            "biome_source": Compound({"type": String("minecraft:the_end"), "seed": world_seed}),
        })}),
    })
    x, sy, z, yaw = arrive
    player = Compound({  # the single-player's own record: where a new world's player appears
        "DataVersion": Int(data_version),
        "Pos": List[Double]([Double(x + 0.5), Double(sy), Double(z + 0.5)]),
        "Rotation": List[Float]([Float(yaw), Float(0)]),
        "Motion": List[Double]([Double(0), Double(0), Double(0)]),
        "OnGround": Byte(1),
        "Dimension": String("minecraft:overworld"),
        "playerGameType": Int(0),
    })
    data = Compound({
        "DataVersion": Int(data_version),
        "version": Int(19133),
        "Version": Compound({"Id": Int(data_version), "Name": String(mc_version),
                             "Series": String("main"), "Snapshot": Byte(0)}),
        "LevelName": String(name),
        "GameType": Int(0),
        "Difficulty": Byte(1),
        "hardcore": Byte(0),
        "allowCommands": Byte(1),
        "initialized": Byte(1),
        "SpawnX": Int(x), "SpawnY": Int(sy), "SpawnZ": Int(z), "SpawnAngle": Float(yaw),
        "spawn": Compound({"dimension": String("minecraft:overworld"), "pos": IntArray([x, sy, z]),
                           "yaw": Float(yaw), "pitch": Float(0)}),
        "Player": player,
        "Time": Long(0),
        "DayTime": Long(TIME if time is None else time),
        "LastPlayed": Long(0),
        "raining": Byte(0), "thundering": Byte(0), "rainTime": Int(0), "thunderTime": Int(0),
        "clearWeatherTime": Int(0 if time is None else 1_000_000_000),
        "GameRules": Compound(game_rules),
        "WorldGenSettings": Compound({
            "seed": world_seed, "generate_features": Byte(0), "bonus_chest": Byte(0),
            "dimensions": dimensions,
        }),
        "DataPacks": Compound({"Enabled": List[String]([String("vanilla")]), "Disabled": List[String]()}),
        "ServerBrands": List[String]([String("blockmaze")]),
        "WasModded": Byte(0),
    })
    return Compound({"Data": data})


check_size = size_limits("a world", max_side=WORLD_LIMIT)


register_writer("world", write_world, check_size, prepare_theme=release_theme, java_states=True)
register_writer("world-zip", write_world_zip, check_size, prepare_theme=release_theme,
                java_states=True)
