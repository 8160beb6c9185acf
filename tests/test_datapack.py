"""Datapack ``.zip`` output: checked by ``mcfunction_checker`` and then run in a small simulator.

The simulator (below) executes the pack the way the server would: ``/function blockmaze:build``
by a player standing at the maze's origin, scheduled functions one tick later at world spawn,
``execute as <marker> at @s`` moving the executor to the marker, every ``fill`` applied to a numpy
world. The world is then compared block for block with the theme-drawn volume.
"""

from __future__ import annotations

import functools
import io
import json
import re
import zipfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.blocks.boxes import box_cover
from blockmaze.export.minecraft import datapack
from blockmaze.export.minecraft.placement import player_spot
from mcfunction_checker import (CHAIN_LIMIT, FILL_LIMIT, ChunkTracker, DatapackError, chunks_of,
                                loaded_points, read_datapack)

THEME = bm.load_theme()
TERRAIN = "minecraft:dirt"
SPAWN = (0, 0, 0)  # where scheduled functions run (x, y, z)


# --- building volumes ---------------------------------------------------------------------------


# materials whose block state does not depend on the neighbours (a DOOR's facing and half do;
# tests of oriented states are in test_placement.py); spawn points, which carry block entities,
# are tested in test_spawn_points.py
FREE_STANDING = [int(m) for m in bm.Material if m not in (bm.Material.DOOR, bm.Material.STAIRS,
                                                          bm.Material.MONSTER, bm.Material.ITEM,
                                                          bm.Material.TREASURE)]


def maze_volume(rows: int = 4, cols: int = 5, seed: int = 3, roof: bool = False) -> np.ndarray:
    plan = bm.to_blocks(bm.generate((rows, cols), rng=seed), wall=1, passage=1)
    return bm.extrude(plan, height=3, floor=True, roof=roof)


def random_volume(shape: tuple[int, int, int], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.choice(FREE_STANDING, size=shape).astype(np.uint8)


def expected_states(volume: np.ndarray, theme: bm.Theme = THEME) -> np.ndarray:
    table = np.full(256, None, dtype=object)
    for material, state in theme.minecraft.items():
        table[int(material)] = state
    return table[volume]


def pack_bytes(volume: np.ndarray, **options) -> bytes:
    out = io.BytesIO()
    bm.write(volume, out, format="datapack", **options)
    return out.getvalue()


# --- the simulator ------------------------------------------------------------------------------


class World:
    """A box of blocks (object array indexed [y, z, x]) with entities, a clock and a schedule."""

    def __init__(self, shape: tuple[int, int, int], fill: str = "minecraft:air"):
        self.blocks = np.full(shape, fill, dtype=object)
        self.writes = np.zeros(shape, dtype=np.int32)  # how many fills touched each block
        self.entities: list[dict] = []
        self.tick = 0
        self.queue: list[tuple[int, str]] = []
        self.chains: list[tuple[str, int]] = []  # (function starting the chain, commands run)
        self.fills = 0
        self.chunks = ChunkTracker()
        self.unloaded_fills = 0  # fills run in chunks not forceloaded on an earlier tick
        self.messages: list[str] = []
        self.turned = None
        self.block_entities: dict[tuple[int, int, int], str] = {}  # (y, z, x) -> SNBT merged there

    def run(self, pack, function: str, position: tuple[float, float, float]) -> None:
        """A player at ``position`` runs ``function``; then ticks pass until nothing is scheduled."""
        self._chain(pack, function, position)
        for _ in range(10_000):
            if not self.queue:
                return
            self.tick += 1
            due = [f for t, f in self.queue if t <= self.tick]
            self.queue = [(t, f) for t, f in self.queue if t > self.tick]
            for name in due:
                self._chain(pack, name, SPAWN)  # schedule runs at world spawn
        pytest.fail("the schedule never ends")

    def _chain(self, pack, function: str, position) -> None:
        counter = [0]
        self._call(pack, function, position, counter, depth=0)
        assert counter[0] <= CHAIN_LIMIT, f"chain of {function} ran {counter[0]} commands"
        self.chains.append((function, counter[0]))

    def _call(self, pack, function, position, counter, depth) -> None:
        assert depth < 16, "functions nest too deep"
        for command in pack.functions[function]:
            counter[0] += 1
            self._execute(pack, command, position, counter, depth)

    def _execute(self, pack, command, position, counter, depth) -> None:
        kind, args = command.kind, command.args
        if kind == "fill":
            corners = [int(np.floor(p)) + int(v or 0)
                       for p, v in zip(position * 2, args[:6], strict=True)]
            (x1, y1, z1), (x2, y2, z2) = corners[:3], corners[3:]
            low = (min(y1, y2), min(z1, z2), min(x1, x2))
            high = (max(y1, y2), max(z1, z2), max(x1, x2))
            assert all(0 <= lo and hi < n
                       for lo, hi, n in zip(low, high, self.blocks.shape, strict=True)), \
                f"{command.text} leaves the loaded world"
            box = tuple(slice(lo, hi + 1) for lo, hi in zip(low, high, strict=True))
            assert self.blocks[box].size <= FILL_LIMIT
            origin = (0.0, 0.0, 0.0)  # whole coordinates: chunks_of takes offsets from the origin
            if not self.chunks.loaded(chunks_of(origin, (low[2], low[1]), (high[2], high[1])), self.tick):
                self.unloaded_fills += 1
            self.blocks[box] = args[6]
            self.writes[box] += 1
            self.fills += 1
        elif kind == "data":  # a block entity's fields, merged into the block just filled
            x, y, z = (int(np.floor(p)) + int(v or 0)
                       for p, v in zip(position, args[:3], strict=True))
            block = self.blocks[y, z, x]
            assert block.startswith(("minecraft:chest", "minecraft:spawner")), \
                f"{command.text} merges into {block}, which has no block entity"
            self.block_entities[(y, z, x)] = args[3]
        elif kind == "function":
            self._call(pack, args[0], position, counter, depth + 1)
        elif kind == "schedule":
            self.queue = [(t, f) for t, f in self.queue if f != args[0]]  # replace, as the game does
            self.queue.append((self.tick + int(args[1]), args[0]))
        elif kind == "summon":
            tags = re.search(r'Tags:\["([a-z_]+)"\]', args[1]).group(1)
            self.entities.append({"type": args[0], "tag": tags, "pos": position})
        elif kind == "kill":
            self.entities = [e for e in self.entities if not _selects(args[0], e)]
        elif kind == "forceload":
            self.chunks.run(command, position, self.tick)
        elif kind == "tellraw":
            self.messages.append(json.loads(args[0])["text"])
        elif kind == "tp":
            self.turned = (float(args[0]), float(args[1]))
        elif kind == "execute":
            chosen = [e for e in self.entities if _selects(args[0], e)]
            if position == SPAWN:  # from the schedule: the marker is found only in a loaded chunk
                for entity in chosen:
                    assert self.chunks.loaded(chunks_of(entity["pos"], (0, 0), (0, 0)), self.tick + 1), \
                        "the origin marker's chunk is not forceloaded"
            if "limit=1" in args[0]:
                chosen = chosen[:1]
            for entity in chosen:
                if self.chunks.loaded(loaded_points(entity["pos"], args[1]), self.tick):
                    self._call(pack, args[2], entity["pos"], counter, depth + 1)
        elif kind == "execute-unless":
            for entity in [e for e in self.entities if _selects(args[0], e)][:1]:
                if not self.chunks.loaded(loaded_points(entity["pos"], args[1:4]), self.tick):
                    self.queue = [(t, f) for t, f in self.queue if f != args[4]]
                    self.queue.append((self.tick + int(args[5]), args[4]))
        else:  # pragma: no cover - the checker admits nothing else
            pytest.fail(f"the simulator cannot run {command.text}")


def _selects(selector: str, entity: dict) -> bool:
    fields = dict(f.split("=") for f in selector[3:-1].split(","))
    return fields.get("type", entity["type"]) == entity["type"] and fields.get("tag") == entity["tag"]


def build_in_world(data: bytes, shape, mc_version="1.20.4", origin=(3, 2, 5), terrain=None,
                   spot=(0, 0, 0)):
    """Check the pack; a player standing at ``spot`` (y, z, x, relative to where the maze's min
    corner is to go: ``origin`` (x, y, z)) runs ``blockmaze:build`` in a world with a margin.
    Return the world and the maze's region of it (y, z, x)."""
    pack = read_datapack(data, mc_version)
    height, length, width = shape
    ox, oy, oz = origin
    world = World((oy + height + 3, oz + length + 3, ox + width + 3), terrain or "minecraft:air")
    # a fractional position: blocks are counted from the block the executor stands in
    sy, sz, sx = spot
    world.run(pack, "blockmaze:build", (ox + sx + 0.5, oy + sy + 0.25, oz + sz + 0.75))
    region = (slice(oy, oy + height), slice(oz, oz + length), slice(ox, ox + width))
    return world, region, pack


def assert_same_blocks(found: np.ndarray, expected: np.ndarray) -> None:
    assert found.shape == expected.shape, f"shape (y, z, x) {found.shape} != {expected.shape}"
    differ = np.argwhere(found != expected)
    if differ.size:
        y, z, x = differ[0]
        pytest.fail(f"{len(differ)} blocks differ; first at x={x}, y={y}, z={z}: "
                    f"{found[y, z, x]!r} != {expected[y, z, x]!r}")


def assert_built(volume, data, mc_version="1.20.4", keep_terrain=False, theme=THEME):
    spot = player_spot(volume)[:3]
    world, region, pack = build_in_world(data, volume.shape, mc_version,
                                         terrain=TERRAIN if keep_terrain else None, spot=spot)
    expected = expected_states(volume, theme)
    if keep_terrain:
        expected = np.where(volume == bm.Material.AIR, TERRAIN, expected)
    assert_same_blocks(world.blocks[region], expected)
    outside = np.ones(world.blocks.shape, dtype=bool)
    outside[region] = False
    assert (world.writes[outside] == 0).all(), "a fill reached outside the maze"
    covered = world.writes[region]
    if keep_terrain:
        assert (covered[volume == bm.Material.AIR] == 0).all(), "air was filled despite keep_terrain"
        assert (covered[volume != bm.Material.AIR] == 1).all(), "boxes overlap or miss blocks"
    else:
        assert (covered == 1).all(), "boxes overlap or miss blocks"
    assert world.entities == [], "the origin marker is left behind"
    assert world.unloaded_fills == 0, "a fill ran in a chunk that was not forceloaded"
    if world.fills:
        assert world.chunks.since == {}, "forceloaded chunks are left behind"
        assert world.messages and world.messages[-1].endswith("the maze is built")
    return world, pack


VOLUMES = {
    "maze": lambda: maze_volume(),
    "maze-roofed": lambda: maze_volume(3, 6, seed=9, roof=True),
    "asymmetric-random": lambda: random_volume((3, 5, 7), seed=11),
    "fortran-order": lambda: np.asfortranarray(random_volume((4, 3, 6), seed=12)),
    "strided-view": lambda: random_volume((4, 6, 9), seed=13)[::-1, :, ::2],
}


# --- building the maze --------------------------------------------------------------------------


@pytest.mark.parametrize("keep_terrain", [False, True])
@pytest.mark.parametrize("kind", VOLUMES)
def test_simulated_build_matches_volume(kind, keep_terrain):
    """Running the pack builds the theme-drawn volume block for block at the executor."""
    volume = VOLUMES[kind]()
    assert_built(volume, pack_bytes(volume, keep_terrain=keep_terrain), keep_terrain=keep_terrain)


def test_axis_order_single_block():
    """A wall block at x=4, y=1, z=2 of a 7 wide, 3 high, 5 long box is built there only."""
    volume = np.zeros((3, 5, 7), np.uint8)
    volume[1, 2, 4] = bm.Material.WALL
    world, _ = assert_built(volume, pack_bytes(volume))
    wall = THEME.minecraft[bm.Material.WALL]
    assert np.argwhere(world.blocks == wall).tolist() == [[2 + 1, 5 + 2, 3 + 4]]


def test_keep_terrain_leaves_terrain_where_the_maze_has_air():
    """With keep_terrain no fill names air; the pre-filled terrain survives in the passages."""
    volume = maze_volume(5, 5)
    data = pack_bytes(volume, keep_terrain=True)
    pack = read_datapack(data, "1.20.4")
    states = {c.args[6] for commands in pack.functions.values() for c in commands if c.kind == "fill"}
    assert "minecraft:air" not in states
    world, _ = assert_built(volume, data, keep_terrain=True)
    assert (world.blocks == TERRAIN).sum() > 0


def test_all_air_with_keep_terrain_writes_no_fill():
    """A volume of air only, with keep_terrain, gives a pack that runs no fill at all."""
    volume = np.zeros((2, 3, 4), np.uint8)
    world, pack = assert_built(volume, pack_bytes(volume, keep_terrain=True), keep_terrain=True)
    assert world.fills == 0
    assert not [name for name in pack.functions if "part" in name]


@pytest.mark.slow
def test_high_entropy_volume_splits_into_parts():
    """A random volume needing over PART_COMMANDS boxes runs as several scheduled chains."""
    volume = random_volume((6, 64, 128), seed=5)
    data = pack_bytes(volume)
    world, pack = assert_built(volume, data)
    parts = sorted(name for name in pack.functions if ":part_" in name)
    assert len(parts) >= 2
    assert all(len(pack.functions[p]) <= datapack.PART_COMMANDS for p in parts)
    # one chain for build, then one for each part, each on its own tick
    assert [name for name, _ in world.chains] == ["blockmaze:build"] + [
        f"blockmaze:run_{k}" for k in range(1, len(parts) + 1)]
    assert max(count for _, count in world.chains) < CHAIN_LIMIT // 2
    # the first part waits LOAD_TICKS for its forceloaded chunks, the next ones follow a tick apart
    assert world.tick == datapack.LOAD_TICKS + len(parts) - 1


@pytest.mark.slow
@pytest.mark.parametrize("shape", [(3, 100, 200), (1, 1, 40000), (40, 40, 40)],
                         ids=["slab", "long-row", "cube"])
def test_big_uniform_boxes_are_split_under_the_fill_limit(shape):
    """One material everywhere still gives boxes of at most 32768 blocks, covering all of it."""
    volume = np.full(shape, bm.Material.WALL, np.uint8)
    data = pack_bytes(volume)
    pack = read_datapack(data, "1.20.4")  # the checker enforces the limit on every fill
    fills = [c for commands in pack.functions.values() for c in commands if c.kind == "fill"]
    assert len(fills) >= -(-volume.size // FILL_LIMIT)
    assert_built(volume, data)


def test_fills_are_ordered_bottom_up():
    """Lower boxes come first, so floors exist before what stands on them (gravel, scaffolding)."""
    pack = read_datapack(pack_bytes(maze_volume(6, 6, roof=True)), "1.20.4")
    starts = []
    for k in range(1, 100):
        commands = pack.functions.get(f"blockmaze:part_{k}")
        if commands is None:
            break
        starts += [min(int(c.args[1] or 0), int(c.args[4] or 0)) for c in commands]
    assert starts == sorted(starts)


def test_variants_drawn_from_seed_are_built():
    """With a seed the weighted variants appear, and the build matches what the seed draws."""
    from blockmaze.export.minecraft.palette import minecraft_palette

    volume = maze_volume(8, 8)
    indices, palette = minecraft_palette(volume, THEME, 21)
    world, region, _ = build_in_world(pack_bytes(volume, seed=21), volume.shape,
                                      spot=player_spot(volume)[:3])
    expected = np.array(palette, dtype=object)[indices]
    assert_same_blocks(world.blocks[region], expected)
    assert len(set(expected.ravel())) > len(set(expected_states(volume).ravel()))


@pytest.mark.parametrize("theme", bm.theme_names())
def test_every_shipped_theme_builds(theme):
    """Every shipped theme's states go through the checker and the simulator (seeded variants too)."""
    theme = bm.load_theme(theme)
    volume = random_volume((3, 6, 8), seed=2)
    # gravel (the hedge's path) over air would stand alone as cobblestone (test_placement.py)
    volume[:-1][(volume[1:] == bm.Material.PATH) & (volume[:-1] == bm.Material.AIR)] = bm.Material.WALL
    assert_built(volume, pack_bytes(volume, theme=theme), theme=theme)
    read_datapack(pack_bytes(volume, theme=theme, seed=4), "1.20.4")


# --- versions -----------------------------------------------------------------------------------


@pytest.mark.parametrize("mc_version, meta, folder", [
    ("1.14", {"pack_format": 4}, "functions"),
    ("1.17", {"pack_format": 7}, "functions"),
    ("1.20.1", {"pack_format": 15}, "functions"),
    ("1.20.4", {"pack_format": 26}, "functions"),
    ("1.20.6", {"pack_format": 41}, "functions"),
    ("1.21", {"pack_format": 48}, "function"),
    ("1.21.8", {"pack_format": 81}, "function"),
    ("1.21.9", {"min_format": 88, "max_format": 88}, "function"),
    ("1.21.11", {"min_format": 94, "max_format": 94}, "function"),
])
def test_pack_format_and_folder_per_release(mc_version, meta, folder):
    """pack.mcmeta and the function folder follow the release (§5, §5.1), and the pack builds."""
    volume = maze_volume(2, 3)
    data = pack_bytes(volume, mc_version=mc_version)
    pack = read_datapack(data, mc_version)
    found = {k: v for k, v in pack.meta["pack"].items() if k != "description"}
    assert found == meta
    assert pack.folder == folder
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert all(n == "pack.mcmeta" or n.startswith(f"data/blockmaze/{folder}/") for n in names)
    assert_built(volume, data, mc_version)


def test_before_1_17_the_marker_is_an_armor_stand():
    """minecraft:marker came in 1.17; older packs carry the origin on an invisible armor stand."""
    pack = read_datapack(pack_bytes(maze_volume(2, 2), mc_version="1.16.5"), "1.16.5")
    summons = [c.args[0] for c in pack.functions["blockmaze:build"] if c.kind == "summon"]
    assert summons == ["minecraft:armor_stand"]
    pack = read_datapack(pack_bytes(maze_volume(2, 2), mc_version="1.17"), "1.17")
    assert [c.args[0] for c in pack.functions["blockmaze:build"] if c.kind == "summon"] == ["minecraft:marker"]


@pytest.mark.parametrize("mc_version, message", [
    ("26.1", "does not know the datapack format"),
    ("26.2", "does not know the datapack format"),
    ("1.13.2", "/schedule"),
    ("1.12.2", "unknown Minecraft version"),
])
def test_unsupported_releases_raise_and_leave_no_file(mc_version, message, tmp_path):
    """Releases without a known pack format (26.x) or without /schedule are clear errors."""
    with pytest.raises(bm.BlockmazeError, match=message):
        bm.write(maze_volume(2, 2), tmp_path / "maze.zip", mc_version=mc_version)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("mc_version, message", [
    ("26.1", "does not know the datapack format"),
    ("1.13.2", "/schedule"),
])
def test_function_files_refuse_a_release_without_a_datapack(mc_version, message):
    """The function files, called alone, refuse a release no datapack runs on as the pack does
    (26.x has no known format: its ``pack_format`` is None, once unpacked as a pair)."""
    text, ends, columns = datapack.fill_text(maze_volume(2, 2), bm.load_theme(), None, False,
                                             (0, 0, 0), datapack.TILE, "1.21")
    with pytest.raises(bm.BlockmazeError, match=message):
        datapack.function_files(text, ends, columns, mc_version)


def test_too_tall_for_the_release_raises():
    """A 300-block-high volume fits a 1.18+ world but not a 1.17 one."""
    volume = np.zeros((300, 1, 1), np.uint8)
    assert_built(volume, pack_bytes(volume, mc_version="1.18"), "1.18")
    with pytest.raises(bm.BlockmazeError, match="256 high"):
        pack_bytes(volume, mc_version="1.17")


# --- files --------------------------------------------------------------------------------------


def test_same_input_gives_identical_bytes(tmp_path):
    """Two writes of the same maze and seed are byte-identical (sorted entries, fixed stamps)."""
    paths = [tmp_path / "a.zip", tmp_path / "b.zip"]
    for path in paths:
        bm.write(maze_volume(6, 7, seed=42), path, seed=42)
    assert paths[0].read_bytes() == paths[1].read_bytes()
    infos = zipfile.ZipFile(paths[0]).infolist()
    assert [i.filename for i in infos] == sorted(i.filename for i in infos)
    assert {i.date_time for i in infos} == {(1980, 1, 1, 0, 0, 0)}


def test_suffix_picks_the_datapack_writer(tmp_path):
    """A .zip path gets the datapack; its bytes equal the stream written with format='datapack'."""
    volume = maze_volume()
    bm.write(volume, tmp_path / "maze.zip")
    assert (tmp_path / "maze.zip").read_bytes() == pack_bytes(volume)


def test_commands_use_relative_coordinates_without_slash():
    """Every fill is relative to the executor (the player outside the maze: the min corner is at
    minus the player's spot) and has no leading slash."""
    volume = maze_volume(3, 3)
    data = pack_bytes(volume)
    archive = zipfile.ZipFile(io.BytesIO(data))
    lines = [line for name in archive.namelist() if name.endswith(".mcfunction")
             for line in archive.read(name).decode().splitlines()]
    fills = [line for line in lines if line.startswith("fill ")]
    assert fills and all(re.fullmatch(r"fill( ~-?\d+){6} \S+", line) for line in fills)
    assert not any(line.startswith("/") for line in lines)
    x, y, z = player_spot(volume).offset
    assert f"fill ~{x} ~{y} ~{z} " in "\n".join(fills)


def test_pack_mcmeta_is_json_with_a_description():
    meta = json.loads(zipfile.ZipFile(io.BytesIO(pack_bytes(maze_volume(2, 2)))).read("pack.mcmeta"))
    assert "blockmaze:build" in meta["pack"]["description"]


# --- properties ---------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(shape=st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)),
       seed=st.integers(0, 2**32 - 1), keep_terrain=st.booleans())
def test_random_volumes_build_exactly(shape, seed, keep_terrain):
    """Any small random volume, terrain kept or not, builds exactly, every block filled once."""
    volume = random_volume(shape, seed)
    assert_built(volume, pack_bytes(volume, keep_terrain=keep_terrain), keep_terrain=keep_terrain)


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(shape=st.tuples(st.integers(1, 40), st.integers(1, 40), st.integers(1, 40)),
       limit=st.integers(1, 64), seed=st.integers(0, 2**32 - 1), materials=st.integers(1, 3))
def test_box_cover_partitions_exactly(shape, limit, seed, materials):
    """box_cover's boxes are uniform, within the limit and cover each block exactly once."""
    values = np.random.default_rng(seed).integers(0, materials, size=shape).astype(np.int32)
    boxes = box_cover(values, -1, limit)
    count = np.zeros(shape, np.int32)
    for y0, z0, x0, y1, z1, x1, v in boxes:
        box = values[y0:y1 + 1, z0:z1 + 1, x0:x1 + 1]
        assert box.size <= limit and (box == v).all()
        count[y0:y1 + 1, z0:z1 + 1, x0:x1 + 1] += 1
    assert (count == 1).all()


# --- the checker rejects broken packs -----------------------------------------------------------


def rezip(data: bytes, edit) -> bytes:
    """Rewrite a pack: ``edit(files)`` changes the dict name -> bytes in place."""
    archive = zipfile.ZipFile(io.BytesIO(data))
    files = {name: archive.read(name) for name in archive.namelist()}
    edit(files)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as new:
        for name in sorted(files):
            new.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), files[name])
    return out.getvalue()


def first_part(files):
    return next(n for n in sorted(files) if "/part_1." in n)


def set_meta(pack):
    return lambda files: files.update({"pack.mcmeta": json.dumps({"pack": pack}).encode()})


BROKEN = [
    pytest.param("1.20.4", lambda f: f.update({first_part(f): b"/" + f[first_part(f)]}),
                 "starts with '/'", id="leading-slash"),
    pytest.param("1.20.4", lambda f: f.update({first_part(f): b"fill ~0 ~0 ~0 ~32 ~32 ~31 minecraft:stone\n"}),
                 "34848 blocks", id="fill-over-limit"),
    pytest.param("1.20.4", lambda f: f.update({first_part(f): b"fill 0 0 0 1 1 1 minecraft:stone\n"}),
                 "malformed", id="absolute-coordinates"),
    pytest.param("1.20.4", lambda f: f.update({first_part(f): b"clone ~ ~ ~ ~1 ~1 ~1 ~5 ~5 ~5\n"}),
                 "unknown or malformed", id="unknown-command"),
    pytest.param("1.20.4", lambda f: f.update({first_part(f): f[first_part(f)] + b"\n"}),
                 "is empty", id="empty-line"),
    pytest.param("1.20.4", set_meta({"description": "x", "pack_format": 48}), "needs 26",
                 id="wrong-pack-format"),
    pytest.param("1.21.11", set_meta({"description": "x", "pack_format": 94}), "needs min_format",
                 id="1.21.11-plain-pack-format"),
    pytest.param("1.21.11", set_meta({"description": "x", "min_format": 94}), "come together",
                 id="1.21.11-min-without-max"),
    pytest.param("1.21.11", set_meta({"description": "x", "min_format": 88, "max_format": 88}),
                 "leave out", id="1.21.11-range-misses-94"),
    pytest.param("1.20.4", lambda f: f.pop("pack.mcmeta"), "pack.mcmeta is missing", id="no-mcmeta"),
    pytest.param("1.20.4", lambda f: f.update({n.replace("/functions/", "/function/"): f.pop(n)
                                              for n in [n for n in list(f) if "/functions/" in n]}),
                 "not function/", id="1.20.4-singular-folder"),
    pytest.param("1.20.4", lambda f: f.update({"data/blockmaze/functions/run_1.mcfunction":
                                              b"function blockmaze:part_1\nfunction blockmaze:part_2\n"}),
                 "2 functions of fill commands", id="two-parts-in-one-chain"),
    pytest.param("1.20.4", lambda f: f.update({"data/blockmaze/functions/build.mcfunction":
                                              b"function blockmaze:nowhere\n"}),
                 "does not exist", id="missing-function"),
    pytest.param("1.20.4", lambda f: f.update({"data/blockmaze/functions/build.mcfunction":
                                              b"schedule function blockmaze:nowhere 1t\n"}),
                 "does not exist", id="missing-scheduled-function"),
    pytest.param("1.20.4", lambda f: f.update({"data/blockmaze/functions/loop.mcfunction":
                                              b"function blockmaze:loop\n"}),
                 "calls itself", id="recursion"),
    pytest.param("1.20.4", lambda f: f.update({first_part(f): b"fill ~0 ~0 ~0 ~0 ~0 ~0 minecraft:air\n" * 65537}),
                 "runs 6553[79] commands in one chain; the limit is 65536", id="chain-too-long"),
]


@functools.lru_cache
def good_pack(mc_version: str) -> bytes:
    """A valid pack of several parts to break."""
    return pack_bytes(random_volume((6, 64, 128), seed=5), mc_version=mc_version)


@pytest.mark.slow
@pytest.mark.parametrize("mc_version, edit, message", BROKEN)
def test_checker_rejects_broken_pack(mc_version, edit, message):
    """Each deliberately broken pack fails the checker with a message naming the rule."""
    data = rezip(good_pack(mc_version), edit)
    with pytest.raises(DatapackError, match=message):
        read_datapack(data, mc_version)


def test_checker_rejects_time_stamps_and_unsorted_entries():
    data = pack_bytes(maze_volume(2, 2))
    archive = zipfile.ZipFile(io.BytesIO(data))
    for order, stamp, message in [(sorted, (2024, 5, 1, 12, 0, 0), "time stamp"),
                                  (lambda n: sorted(n, reverse=True), (1980, 1, 1, 0, 0, 0), "not sorted")]:
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as new:
            for name in order(archive.namelist()):
                new.writestr(zipfile.ZipInfo(name, date_time=stamp), archive.read(name))
        with pytest.raises(DatapackError, match=message):
            read_datapack(out.getvalue(), "1.20.4")


def test_untampered_rezip_passes():
    """The control case: rewriting a good pack without an edit keeps it valid."""
    read_datapack(rezip(pack_bytes(maze_volume(3, 3)), lambda files: None), "1.20.4")


# --- big mazes: columns, forceloads, waiting for chunks -----------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("mc_version", ["1.18.2", "1.21.4"])
@pytest.mark.parametrize("origin", [(3, 2, 5), (14, 1, 9)], ids=["aligned-3-5", "aligned-14-9"])
def test_a_maze_of_several_columns_builds_in_forceloaded_chunks(mc_version, origin):
    """More than 240 blocks each way: four columns, each forceloaded before its fills and released
    after, every fill in chunks forceloaded on an earlier tick, from any chunk alignment."""
    volume = maze_volume(125, 130)  # 251 x 261 blocks
    data = pack_bytes(volume, mc_version=mc_version)
    pack = read_datapack(data, mc_version)
    spot = player_spot(volume)[:3]
    world, region, _ = build_in_world(data, volume.shape, mc_version, origin=origin, spot=spot)
    assert_same_blocks(world.blocks[region], expected_states(volume))
    assert world.unloaded_fills == 0 and world.chunks.since == {}
    assert 0 < world.chunks.most <= 3 * 256 + 1  # at most three columns and the anchor at once
    assert sum(m.startswith("[blockmaze] column") for m in world.messages) == 3
    guards = [c for f in pack.functions.values() for c in f if c.kind == "execute-unless"]
    assert bool(guards) == (mc_version == "1.21.4")  # execute if loaded exists from 1.19.4


def test_from_1_19_4_a_column_waits_for_its_chunks():
    """Take the forceloads of the second column out of the pack: from 1.19.4 the build waits for
    its chunks instead of filling unloaded ones (it waits for ever here); before, fills fail."""
    volume = maze_volume(125, 10)  # 251 blocks long: two columns
    for mc_version, waits in (("1.21.4", True), ("1.18.2", False)):
        def drop_second_column(files):  # the last column forceload in build and in next_1
            for name in list(files):
                if name.endswith(("/build.mcfunction", "/next_1.mcfunction")):
                    lines = files[name].decode().splitlines()
                    rects = [i for i, line in enumerate(lines)
                             if line.startswith("forceload add") and line.count("~") == 4]
                    del lines[rects[-1]]
                    files[name] = ("\n".join(lines) + "\n").encode()
        data = rezip(pack_bytes(volume, mc_version=mc_version), drop_second_column)
        spot = player_spot(volume)[:3]
        if waits:
            with pytest.raises(pytest.fail.Exception, match="never ends"):
                build_in_world(data, volume.shape, mc_version, spot=spot)
        else:
            pack = read_datapack(data, mc_version)
            world = World((8, 260, 30))
            world.run(pack, "blockmaze:build", (3 + spot[2] + 0.5, 2 + spot[0] + 0.25, 5 + spot[1] + 0.75))
            assert world.unloaded_fills > 0
