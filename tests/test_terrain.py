"""--terrain follow (issue 51, item 2): the floor steps with the ground under the maze.

The rules on random ground (hypothesis, the pure functions); a Java world with hills, trees and
water made here, built into with ``--into --terrain follow`` and read back with anvil-parser2
(every step between neighbouring columns at most one block, a stair up each rise between
passages, the walls their height above their floor, nothing under the floor air, everything
outside the footprint as it was); the game's bot walks one such build from its start to its goal,
and the Amulet operation (through amulet-core) follows the ground of its selection.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from blockmaze.errors import BlockmazeError
from blockmaze.export.minecraft import into as into_module
from blockmaze.export.minecraft.anvil import region_records
from blockmaze.export.minecraft.terrain import KEEP, follow, lifts
from blockmaze.export.minecraft.world import write_world
from blockmaze.materials import Material, load_theme

GROUNDS = arrays(np.int64, st.tuples(st.integers(1, 12), st.integers(1, 12)),
                 elements=st.integers(-20, 20))


def steps(values: np.ndarray) -> int:
    """The largest difference between two columns that share a side."""
    along_x = np.abs(np.diff(values, axis=1)).max(initial=0)
    along_z = np.abs(np.diff(values, axis=0)).max(initial=0)
    return int(max(along_x, along_z))


@given(GROUNDS)
def test_the_floor_steps_one_block_at_most_and_is_the_ground_where_the_ground_allows(ground):
    floors = lifts(ground)
    assert steps(floors) <= 1
    if steps(ground) <= 1:
        assert (floors == ground).all()
    # the least levelling that keeps the steps: never further from the ground than half of the
    # gap between the envelopes, and never outside the ground's own range
    assert floors.min() >= ground.min() and floors.max() <= ground.max()


@settings(max_examples=25)
@given(GROUNDS, st.integers(1, 5), st.data())
def test_each_column_is_the_maze_on_its_floor_filled_below_and_cleared_above(ground, height, data):
    shape = (height,) + ground.shape
    ids = data.draw(arrays(np.int32, shape, elements=st.integers(1, 4)))
    clear_top = ground + data.draw(arrays(np.int64, ground.shape, elements=st.integers(0, 6)))
    y0, volume, floors = follow(ids, ground, clear_top, filler=9, air=0)
    for z, x in np.ndindex(ground.shape):
        column = volume[:, z, x]
        floor = floors[z, x] - y0
        assert (column[floor:floor + height] == ids[:, z, x]).all(), "the maze's column moved whole"
        below = column[:floor]
        assert (below[ground[z, x] - y0:] == 9).all(), "filled from the ground to the floor"
        assert (below[:ground[z, x] - y0] == KEEP).all(), "the ground itself kept"
        above = column[floor + height:]
        cleared = max(clear_top[z, x] - y0 - floor - height, 0)
        assert (above[:cleared] == 0).all() and (above[cleared:] == KEEP).all()


# --- a world with hills, trees and water --------------------------------------------------

def anvil():
    return pytest.importorskip("anvil", reason="anvil-parser2 reads the world back (the test extra)")


WORLD_THEME = {Material.WALL: "minecraft:grass_block", Material.FLOOR: "minecraft:oak_log[axis=y]",
               Material.ROOF: "minecraft:oak_leaves[distance=1,persistent=true,waterlogged=false]",
               Material.LIGHT: "minecraft:water[level=0]"}
SIDE = 64  # the world's blocks a side (4 chunks)
BASE = -60  # the hills' lowest layer (the world's grass below it, at -61)


def hill_world(folder: Path, rng: np.random.Generator, steep: bool = True) -> np.ndarray:
    """A world SIDE x SIDE blocks of grassy hills with a few trees and a pond, written as a new
    world (its hills are that world's "maze" volume); gives each column's ground (z, x) as the
    y one above its highest ground block."""
    zs, xs = np.mgrid[0:SIDE, 0:SIDE]
    hills = np.zeros((SIDE, SIDE))
    for _ in range(4):
        cz, cx, spread = rng.uniform(0, SIDE), rng.uniform(0, SIDE), rng.uniform(6, 16)
        hills += rng.uniform(1, 6) * np.exp(-((zs - cz) ** 2 + (xs - cx) ** 2) / (2 * spread ** 2))
    heights = np.round(hills).astype(int) + 1
    if steep:  # a cliff and a pillar: more than a step, levelled by the build
        z, x = rng.integers(20, 40, size=2)
        heights[z:z + 8, x:x + 10] += 4
        heights[z - 6, x - 6] += 6
    volume = np.zeros((16, SIDE, SIDE), np.uint8)
    volume[np.arange(16).reshape(-1, 1, 1) < heights] = Material.WALL
    for _ in range(5):  # trees: a trunk of three logs and a crown of leaves
        z, x = rng.integers(3, SIDE - 3, size=2)
        top = heights[z, x]
        volume[top + 3:top + 5, z - 2:z + 3, x - 2:x + 3] = Material.ROOF
        volume[top:top + 4, z, x] = Material.FLOOR
    z, x = rng.integers(4, SIDE - 8, size=2)  # a pond: water over its bed
    bed = heights[z:z + 4, x:x + 4].min() - 1
    volume[bed:, z:z + 4, x:x + 4] = 0
    volume[bed:bed + 1, z:z + 4, x:x + 4] = Material.LIGHT
    heights[z:z + 4, x:x + 4] = bed  # (the ground under the water: its bed)
    theme = load_theme()
    theme = dataclasses.replace(theme, minecraft={**theme.minecraft, **WORLD_THEME})
    write_world(volume, folder, theme, terrain="grass", y=BASE)
    return heights + BASE


class Blocks:
    """A world's block names read with anvil-parser2, chunk by chunk as asked."""

    def __init__(self, folder: Path):
        self.folder, self.chunks = folder, {}

    def __call__(self, x: int, y: int, z: int) -> str:
        key = (x >> 4, z >> 4)
        if key not in self.chunks:
            region = anvil().Region.from_file(str(self.folder / "region" / f"r.{x >> 9}.{z >> 9}.mca"))
            self.chunks[key] = region.get_chunk(key[0] & 31, key[1] & 31)
        return self.chunks[key].get_block(x & 15, y, z & 15).name()


def maze_columns(volume: np.ndarray) -> dict:
    """The block names of each column of the maze (z, x), bottom up: of a volume of materials
    (drawn in glass), or of block states."""
    if volume.dtype == np.uint8:
        names = {m: state for m, state in load_theme("glass").minecraft.items()}
        volume = np.vectorize(names.__getitem__, otypes=[object])(volume)
    return {(z, x): [str(state).split("[")[0] for state in volume[:, z, x]]
            for z, x in np.ndindex(volume.shape[1:])}


STAIR = "minecraft:quartz_stairs"  # glass's stairs, the floor block of a column below a rise


def floor_of(read, column: list[str], x: int, z: int, low: int, high: int) -> int | None:
    """The highest y whose blocks upward are ``column`` in the world, its floor block or a stair
    (None: nowhere)."""
    found = None
    names = [read(x, y, z) for y in range(low, high)]
    for start in range(len(names) - len(column) + 1):
        got = names[start:start + len(column)]
        if got[1:] == column[1:] and got[0] in (column[0], STAIR):
            found = low + start
    return found


def check_follows(world: Path, before: Blocks, columns: dict, corner: tuple[int, int],
                  ground: np.ndarray, clear: bool) -> np.ndarray:
    """Read the build back and hold the rules (``columns``: the maze's, :func:`maze_columns`);
    gives each column's floor y (z, x)."""
    after = Blocks(world)
    x0, z0 = corner
    length, width = max(columns)[0] + 1, max(columns)[1] + 1
    height = len(columns[0, 0])
    floors = np.zeros((length, width), dtype=int)
    for (z, x), column in columns.items():
        g = int(ground[z0 + z, x0 + x])
        y = floor_of(after, column, x0 + x, z0 + z, max(g - 12, -64), g + 12)
        assert y is not None, f"column {x}, {z}: the maze's {height} blocks are not there whole"
        floors[z, x] = y
        for below in range(min(g, y), y):
            assert after(x0 + x, below, z0 + z) != "minecraft:air", f"column {x}, {z} floats"
        assert after(x0 + x, min(g, y) - 1, z0 + z) == before(x0 + x, min(g, y) - 1, z0 + z)
        for above in range(y + height, g + 10):
            was, now = before(x0 + x, above, z0 + z), after(x0 + x, above, z0 + z)
            kept = not clear and was in ("minecraft:oak_leaves", "minecraft:oak_log")
            assert now == (was if kept else "minecraft:air"), f"column {x}, {z} at y {above}"
    # every pair of neighbouring columns (passages and walls alike) within one block, and a
    # passage's plain floor below a rise to a passage beside it is a stair
    walkable = np.array([[columns[z, x][1] == "minecraft:air" for x in range(width)]
                         for z in range(length)])
    for z, x in np.ndindex(walkable.shape):
        rises = [(z + dz, x + dx) for dz, dx in ((-1, 0), (1, 0), (0, -1), (0, 1))
                 if 0 <= z + dz < length and 0 <= x + dx < width and walkable[z + dz, x + dx]
                 and floors[z + dz, x + dx] == floors[z, x] + 1]
        if walkable[z, x] and rises and columns[z, x][0] == "minecraft:white_concrete":
            assert after(x0 + x, int(floors[z, x]), z0 + z) == STAIR, f"no stair up from {x}, {z}"
    assert steps(floors) <= 1
    # outside the footprint, every block of the chunks it reaches as it was
    for x in range(SIDE):
        for z in range(SIDE):
            if not (x0 <= x < x0 + width and z0 <= z < z0 + length) and \
                    (x0 >> 4) <= (x >> 4) <= (x0 + width - 1) >> 4 and \
                    (z0 >> 4) <= (z >> 4) <= (z0 + length - 1) >> 4 and (x + z) % 3 == 0:
                for y in range(BASE - 2, BASE + 16):
                    assert after(x, y, z) == before(x, y, z), f"{x}, {y}, {z} outside the maze changed"
    return floors


def build(world: Path, seed: int, size=(6, 7), clear: str | None = None, **options) -> np.ndarray:
    from blockmaze import pipeline, writing
    from blockmaze.export.minecraft.into import INTO

    document = pipeline.make_maze(size, "square", seed=seed, entrances=True)  # (glass: a theme
    # without variants, so each column's blocks are known)
    return writing.save(document, world, format=INTO, theme="glass", solution=True, at=(SIDE // 2, SIDE // 2),
                        terrain="follow", clear=clear, backup=False, **options)


@pytest.mark.slow
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 16), st.booleans())
def test_into_a_hill_world_the_floor_follows_the_ground_within_the_rules(tmp_path_factory, seed, clear):
    anvil()
    folder = tmp_path_factory.mktemp("hills")
    world, copy = folder / "W", folder / "Before"
    ground = hill_world(world, np.random.default_rng(seed))
    write_world_copy(world, copy)
    volume = build(world, seed, clear="trees" if clear else None)
    corner = into_module.Box(SIDE // 2 - volume.shape[2] // 2, 0, SIDE // 2 - volume.shape[1] // 2,
                             volume.shape)
    check_follows(world, Blocks(copy), maze_columns(volume), (corner.x, corner.z), ground, clear)
    # the chunks the box does not reach: their records byte for byte
    before = region_records((copy / "region" / "r.0.0.mca").read_bytes(), "before")
    after = region_records((world / "region" / "r.0.0.mca").read_bytes(), "after")
    reached = set(corner.chunks())
    for slot, (record, _) in before.items():
        if ((slot & 31), (slot >> 5)) not in reached:
            assert after[slot][0] == record


def write_world_copy(world: Path, copy: Path) -> None:
    import shutil

    shutil.copytree(world, copy)


def test_follow_is_refused_in_one_line_where_it_does_not_fit(tmp_path):
    world = tmp_path / "W"
    hill_world(world, np.random.default_rng(1), steep=False)
    volume = np.ones((2, 3, 3), np.uint8)
    for options, says in [({"terrain": "follow", "y": -50}, "leave out y"),
                          ({"terrain": "grass"}, "terrain=follow"),
                          ({"clear": "trees"}, "give terrain=follow"),
                          ({"terrain": "follow", "clear": "rocks"}, "trees, water or both")]:
        with pytest.raises(BlockmazeError, match=says):
            into_module.write_into(volume, world, load_theme(), at=(32, 32), backup=False, **options)
    roofed = np.array([[[1]], [[0]], [[0]], [[1]]], np.uint8)
    with pytest.raises(BlockmazeError, match="needs three blocks of air"):
        into_module.write_into(roofed, world, load_theme(), at=(32, 32), backup=False, terrain="follow")
    raised = np.array([[[1]], [[1]], [[1]], [[0]], [[0]], [[0]]], np.uint8)  # a weave's passages
    with pytest.raises(BlockmazeError, match="stand 2 blocks over its floor"):
        into_module.write_into(raised, world, load_theme(), at=(32, 32), backup=False, terrain="follow")
    two_levels = np.array([[[1]], [[0]], [[0]], [[0]], [[1]], [[0]], [[0]], [[0]]], np.uint8)
    with pytest.raises(BlockmazeError, match="several levels"):
        into_module.write_into(two_levels, world, load_theme(), at=(32, 32), backup=False,
                               terrain="follow")
    with pytest.raises(BlockmazeError, match="give into WORLD"):
        write_world(volume, tmp_path / "New", load_theme(), terrain="follow")


@pytest.mark.slow
def test_the_command_builds_following_and_says_how_in_its_line(tmp_path):
    world = tmp_path / "W"
    hill_world(world, np.random.default_rng(2))
    done = subprocess.run([sys.executable, "-m", "blockmaze", "generate", "5x5", "-s", "1",
                           "--into", str(world), "--at", "32,32", "--terrain", "follow",
                           "--clear", "trees,water", "--no-backup"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert "the floor follows the ground from y" in done.stderr
    assert "trees and water cleared" in done.stderr
    done = subprocess.run([sys.executable, "-m", "blockmaze", "generate", "5x5", "--into",
                           str(world), "--terrain", "follow", "--y", "-40"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "--terrain follow" in lines[0] \
        and "--y" in lines[0], done.stderr


@pytest.mark.slow
@pytest.mark.reader
def test_the_bot_walks_a_maze_that_follows_the_hills_from_its_start_to_its_goal(tmp_path):
    """The game's bot (tests/game.py) starts on the maze's start, in a world of hills, and walks
    to its goal over the floor's steps."""
    import nbtlib

    from game import feet_on, walk

    world = tmp_path / "W"
    ground = hill_world(world, np.random.default_rng(5))
    volume = build(world, 3, size=(6, 6), clear="trees,water")
    x0, z0 = SIDE // 2 - volume.shape[2] // 2, SIDE // 2 - volume.shape[1] // 2
    floors = check_follows(world, Blocks(world), maze_columns(volume), (x0, z0), ground, True)
    sx, _, sz = feet_on(volume, Material.START)
    gx, gy, gz = feet_on(volume, Material.GOAL)
    level = nbtlib.load(world / "level.dat")
    level["Data"]["SpawnX"], level["Data"]["SpawnZ"] = nbtlib.Int(x0 + sx), nbtlib.Int(z0 + sz)
    level.save()
    goal = [x0 + gx, int(floors[gz, gx]) + gy, z0 + gz]
    assert steps(floors) <= 1 and floors.max() > floors.min(), "the hills are not followed"
    read = Blocks(world)
    assert sum(read(x0 + x, int(floors[z, x]), z0 + z) == STAIR
               for z, x in np.ndindex(floors.shape)) >= 3, "the walk climbs no stairs"
    results = walk(world={"folder": world, "goal": goal, "route": [], "starts": ["spawn"]},
                   timeout=60)
    failed = [f"{r['name']}: {r['why']} at {r['at']} (goal {r['goal']})" for r in results if not r["reached"]]
    assert not failed, "\n".join(failed)


@pytest.mark.slow
@pytest.mark.reader
def test_the_amulet_operation_follows_the_ground_of_its_selection(tmp_path):
    """amulet-core runs the operation (tests/test_host_amulet.py's driver) with Terrain follow on
    a hill world: the selection's ground goes to the command as a .schem, and the maze pasted
    back follows it within the rules (read back with anvil-parser2)."""
    from blockmaze.cli import main
    from schem_checker import read_schem
    from test_host_amulet import PASSAGE, WALL, run_operation

    world, copy = tmp_path / "W", tmp_path / "Before"
    ground = hill_world(world, np.random.default_rng(11))
    write_world_copy(world, copy)
    low, high = (20, BASE - 4, 18), (47, BASE + 24, 41)
    chosen = {"Seed": "7", WALL: 1, PASSAGE: 2, "Wall height": 3, "Entrances": True,
              "Theme": "glass", "Terrain": "follow", "Clear (trees, water or trees,water)": "trees"}
    said = run_operation(tmp_path, world, chosen=chosen, low=low, high=high)
    assert "error" not in said, said
    same = tmp_path / "same.schem"
    assert main(["-q", "generate", "--fit", "23x27", "--seed", "7", "--wall", "1", "--passage",
                 "2", "--height", "3", "--entrances", "--theme", "glass", "--mc-version",
                 "1.20.4", "-o", str(same)]) == 0
    columns = maze_columns(read_schem(same.read_bytes()).blocks)
    floors = check_follows(world, Blocks(copy), columns, (low[0], low[2]), ground, True)
    assert floors.max() > floors.min(), "the hills are not followed"


def test_a_schem_follows_the_ground_of_the_schem_it_is_given(tmp_path):
    """--ground FILE.schem (what the Amulet operation gives the command): the .schem written
    starts at the ground file's bottom, each column the maze's on its floor, steps of one block
    at most, structure voids where the world is kept."""
    from blockmaze.cli import main
    from blockmaze.export.minecraft.sponge import write_indexed
    from schem_checker import read_schem

    heights = np.fromfunction(lambda z, x: 2 + 3 * (x // 4) % 7, (16, 16), dtype=int)
    place = (np.arange(14).reshape(-1, 1, 1) < heights).astype(np.uint16)
    place[heights[4, 4]:heights[4, 4] + 3, 4, 4] = 2  # a trunk: not ground
    with open(tmp_path / "ground.schem", "wb") as out:
        write_indexed(place, ["minecraft:air", "minecraft:grass_block", "minecraft:oak_log[axis=y]"], out)
    args = ["-q", "generate", "3x3", "--seed", "2", "--theme", "glass"]
    assert main([*args, "-o", str(tmp_path / "flat.schem")]) == 0
    assert main([*args, "--ground", str(tmp_path / "ground.schem"), "--clear", "trees",
                 "-o", str(tmp_path / "m.schem")]) == 0
    flat = read_schem((tmp_path / "flat.schem").read_bytes()).blocks
    blocks = read_schem((tmp_path / "m.schem").read_bytes()).blocks
    assert blocks.shape[1:] == flat.shape[1:]
    floors = np.zeros(flat.shape[1:], int)
    for z, x in np.ndindex(flat.shape[1:]):
        column = [str(b).split("[")[0] for b in blocks[:, z, x]]
        want = [str(b).split("[")[0] for b in flat[:, z, x]]
        starts = [y for y in range(len(column)) if column[y + 1:y + len(want)] == want[1:]
                  and column[y] in (want[0], STAIR)]
        assert starts, f"column {x}, {z}"
        floors[z, x] = starts[-1]
        assert all(b == "minecraft:structure_void" for b in column[:min(heights[z, x], starts[-1])])
        assert all(b != "minecraft:air" for b in column[:starts[-1]])
    assert steps(floors) <= 1 and floors.max() - floors.min() >= 3
    assert abs(int(floors[4, 4]) - int(heights[4, 4])) <= 2  # on the ground, not on the trunk
    assert main([*args, "--clear", "trees", "-o", str(tmp_path / "x.schem")]) == 2


@pytest.mark.slow
def test_sigkill_at_12_random_moments_of_a_following_build_leaves_each_world_whole(tmp_path):
    """All or nothing as the rest of --into (tests/test_into.py's kill test, following)."""
    from test_into import kill_test

    counts = kill_test(tmp_path, 12, seed=51, ground=("--terrain", "follow", "--clear", "trees"))
    assert counts["broken or mixed"] == 0, counts
    assert sum(counts.values()) == 12
