"""A dungeon's spawn points in Minecraft: every monster a spawner of one mob, every item and
treasure a chest with a vanilla loot table, in every format that holds block entities.

The ``dungeon`` command writes each format; each is read back by the reader its other tests use
(twoolie ``nbt`` under the schem and structure checkers, mcschematic, litemapy, anvil-parser2,
the datapack replay with nbtlib's SNBT parser, nbtlib for little-endian .mcstructure), and every
spawn point of the dungeon (from :func:`generate_dungeon`, the same seed) must hold the right
block and block entity, and nothing else a block entity. The mob of a spawner is the same in
every format. Chest and spawner states are checked against minecraft-data in test_blockdata.py
(every material of every theme, every release).
"""

from __future__ import annotations

import io
import re

import nbtlib
import pytest
from nbt import nbt

from blockmaze.cli import main
from blockmaze.dungeon import generate_dungeon
from blockmaze.export.minecraft.blockentities import MOBS
from schem_checker import read_schem
from structure_checker import read_structure

HEIGHT = 3  # the command's default wall height; a floor is laid (default), no roof
CASES = [("rooms-and-mazes", 1, 5), ("caves", 1, 2), ("bsp", 3, 7)]
SPAWNS = (4, 3, 2)
LOOT = {"item": "minecraft:chests/simple_dungeon", "treasure": "minecraft:chests/buried_treasure"}
LOOT_1_12 = {**LOOT, "treasure": "minecraft:chests/desert_pyramid"}  # 1.12 had no buried treasure
MOB_IDS = {mob for mob, _ in MOBS}


def run(*args) -> None:
    code = main(["-q", *(str(a) for a in args)])
    assert code in (0, None), f"blockmaze {' '.join(map(str, args))} exited {code}"


def expected_points(style: str, levels: int, seed: int) -> dict[tuple[int, int, int], str]:
    """(y, z, x) in the volume -> monster/item/treasure: each level's spawn points lie in its floor
    (levels stacked bottom first, each floor + HEIGHT layers high)."""
    dungeon = generate_dungeon((10, 14), seed, style=style, levels=levels, spawns=SPAWNS, spacing=2)
    points = {}
    for number, level in enumerate(dungeon.levels):
        floor = (levels - 1 - number) * (HEIGHT + 1)
        for e in level.entities:
            if e.kind in ("monster", "item", "treasure"):
                points[(floor, e.z, e.x)] = e.kind
    assert {"monster", "item", "treasure"} <= set(points.values())
    return points


def yzx(pos) -> tuple[int, int, int]:
    """A Sponge ``Pos`` (x, y, z) as (y, z, x)."""
    x, y, z = pos
    return int(y), int(z), int(x)


def plain(tag):
    """A twoolie ``nbt`` tag as plain values; nbtlib tags are dicts, lists and strings already."""
    if isinstance(tag, nbt.TAG_Compound):
        return {child.name: plain(child) for child in tag.tags}
    if isinstance(tag, nbt.TAG_List):
        return [plain(child) for child in tag.tags]
    if isinstance(tag, nbt.TAG):
        return tag.value
    if isinstance(tag, dict):
        return {str(k): plain(v) for k, v in tag.items()}
    if isinstance(tag, list):
        return [plain(v) for v in tag]
    if isinstance(tag, str):
        return str(tag)
    return int(tag) if isinstance(tag, int) else tag


def content(id_: str, fields: dict, wrapped: bool = True) -> tuple[str, str]:
    """("loot", table) of a chest, ("mob", id) of a spawner; a spawner's SpawnData and its one
    SpawnPotentials entry name the same mob, in 1.18's layout (``wrapped``) or the older one."""
    if id_ == "minecraft:chest":
        return "loot", str(fields["LootTable"])
    assert id_ == "minecraft:mob_spawner", f"block entity {id_!r}"
    data, (potential,) = fields["SpawnData"], fields["SpawnPotentials"]
    if wrapped:
        mob = data["entity"]["id"]
        assert potential["weight"] == 1 and potential["data"]["entity"]["id"] == mob
    else:
        mob = data["id"]
        assert potential["Weight"] == 1 and potential["Entity"]["id"] == mob
    return "mob", str(mob)


def check(found: dict, blocks, points: dict, what: str, loot=LOOT, block_names=None) -> dict:
    """``found``: (y, z, x) -> (kind of content, value); ``blocks(y, z, x)``: the block state
    there. Every spawn point has its block and block entity, and there is no other one."""
    assert set(found) == set(points), f"{what}: block entities at {sorted(set(found) ^ set(points))[:4]}..."
    names = block_names or {"monster": "minecraft:spawner", "item": "minecraft:chest", "treasure": "minecraft:chest"}
    mobs = {}
    for position, kind in points.items():
        assert blocks(*position).partition("[")[0].partition("{")[0] == names[kind], \
            f"{what}: {kind} at {position} is {blocks(*position)}"
        sort, value = found[position]
        if kind == "monster":
            assert sort == "mob" and value in MOB_IDS, f"{what}: spawner at {position} holds {value}"
            mobs[position] = value
        else:
            assert (sort, value) == ("loot", loot[kind]), f"{what}: {kind} at {position} holds {value}"
    return mobs


@pytest.fixture(scope="module", params=CASES, ids=[f"{s}-{n}-levels" for s, n, _ in CASES])
def case(request, tmp_path_factory):
    style, levels, seed = request.param
    folder = tmp_path_factory.mktemp(f"{style}{levels}")
    common = ["dungeon", "10x14", "--style", style, "--levels", levels, "--seed", seed,
              "--spawns", ":".join(map(str, SPAWNS)), "--spawn-spacing", 2]
    for name in ("v2.schem", "v3.schem", "d.nbt", "d.litematic", "d.zip", "d.schematic", "d.mcstructure"):
        extra = ["--schem-version", 3] if name == "v3.schem" else []
        run(*common, *extra, "-o", folder / name)
    run(*common, "--y", 0, "--terrain", "flat", "-o", f"{folder / 'W'}/")
    points = expected_points(style, levels, seed)
    reference = read_schem((folder / "v2.schem").read_bytes(), 2)
    mobs = check({yzx(e["Pos"]): content(e["Id"], e) for e in reference.block_entities},
                 lambda y, z, x: reference.blocks[y, z, x], points, ".schem v2")
    return folder, points, mobs, reference.blocks.shape


@pytest.mark.slow
def test_schem_v3(case):
    folder, points, mobs, _ = case
    schem = read_schem((folder / "v3.schem").read_bytes(), 3)
    found = {yzx(e["Pos"]): content(e["Id"], e["Data"]) for e in schem.block_entities}
    assert check(found, lambda y, z, x: schem.blocks[y, z, x], points, ".schem v3") == mobs


def test_schem_v2_read_by_mcschematic(case):
    """mcschematic shows a block with its block entity's SNBT after the state."""
    mcschematic = pytest.importorskip("mcschematic", reason="mcschematic (the test extra) reads .schem v2")
    folder, points, mobs, shape = case
    schem = mcschematic.MCSchematic(str(folder / "v2.schem"))
    ox, oy, oz = read_schem((folder / "v2.schem").read_bytes()).we_offset
    found = {}
    for position in points:
        y, z, x = position
        text = schem.getBlockDataAt((x + ox, y + oy, z + oz))
        snbt = text[text.index("{"):] if "{" in text else "{}"
        fields = plain(nbtlib.parse_nbt(snbt))
        found[position] = content("minecraft:chest" if "LootTable" in fields else "minecraft:mob_spawner", fields)
    assert check(found, lambda y, z, x: schem.getBlockDataAt((x + ox, y + oy, z + oz)), points,
                 ".schem v2 (mcschematic)") == mobs


@pytest.mark.slow
def test_structure_nbt(case):
    folder, points, mobs, _ = case
    structure = read_structure((folder / "d.nbt").read_bytes())
    root = nbt.NBTFile(fileobj=io.BytesIO((folder / "d.nbt").read_bytes()))
    found = {}
    for block in root["blocks"].tags:
        if "nbt" in block:
            x, y, z = (t.value for t in block["pos"].tags)
            fields = plain(block["nbt"])
            found[(y, z, x)] = content(fields["id"], fields)
    assert check(found, lambda y, z, x: structure.blocks[y, z, x], points, "structure .nbt") == mobs


def test_litematic(case):
    litemapy = pytest.importorskip("litemapy", reason="litemapy (the test extra) reads .litematic")
    folder, points, mobs, _ = case
    region = litemapy.Schematic.load(str(folder / "d.litematic")).regions["maze"]
    found = {}
    for entity in region.tile_entities:
        x, y, z = entity.position
        fields = plain(entity.to_nbt())
        found[(y, z, x)] = content(fields["id"], fields)
    assert check(found, lambda y, z, x: region[x, y, z].to_block_state_identifier(), points,
                 ".litematic (litemapy)") == mobs


def test_datapack(case):
    from test_datapack import build_in_world

    folder, points, mobs, shape = case
    volume_spot = read_schem((folder / "v2.schem").read_bytes()).we_offset  # (x, y, z) = -spot
    spot = (-volume_spot[1], -volume_spot[2], -volume_spot[0])
    world, region, _ = build_in_world((folder / "d.zip").read_bytes(), shape, spot=spot)
    oy, oz, ox = (s.start for s in region)
    found = {}
    for (y, z, x), snbt in world.block_entities.items():
        fields = plain(nbtlib.parse_nbt(snbt))
        found[(y - oy, z - oz, x - ox)] = content(
            "minecraft:chest" if "LootTable" in fields else "minecraft:mob_spawner", fields)
    assert check(found, lambda y, z, x: world.blocks[y + oy, z + oz, x + ox], points, "datapack") == mobs


def test_world_save(case):
    anvil = pytest.importorskip("anvil", reason="anvil-parser2 (the test extra) reads world saves")
    folder, points, mobs, shape = case
    found, states = {}, {}
    for path in sorted((folder / "W" / "region").glob("r.*.mca")):
        region = anvil.Region.from_file(str(path))
        rx, rz = (int(v) for v in path.name.split(".")[1:3])
        for cz in range(32):
            for cx in range(32):
                if region.chunk_location(cx, cz) == (0, 0):
                    continue
                chunk = region.get_chunk(rx * 32 + cx, rz * 32 + cz)
                for entity in chunk.tile_entities:
                    fields = plain(entity)
                    x, y, z = fields["x"], fields["y"], fields["z"]
                    assert fields["keepPacked"] == 0
                    found[(y, z, x)] = content(fields["id"], fields)
                    block = chunk.get_block(x % 16, y, z % 16)
                    states[(y, z, x)] = block.name()
    assert check(found, lambda y, z, x: states[(y, z, x)], points, "world (anvil-parser2)") == mobs


def test_legacy_schematic(case):
    """1.12's layout: SpawnData {id}, SpawnPotentials {Weight, Entity}; chest 54, spawner 52."""
    from test_legacy_schematic import read_legacy

    folder, points, mobs, _ = case
    data = (folder / "d.schematic").read_bytes()
    legacy = read_legacy(data)
    root = nbt.NBTFile(fileobj=io.BytesIO(data))
    found = {}
    for entity in root["TileEntities"].tags:
        fields = plain(entity)
        found[(fields["y"], fields["z"], fields["x"])] = content(fields["id"], fields, wrapped=False)
    names = {54: "minecraft:chest", 52: "minecraft:spawner"}
    assert check(found, lambda y, z, x: names.get(int(legacy.ids[y, z, x]), str(legacy.ids[y, z, x])),
                 points, ".schematic", LOOT_1_12) == mobs


def test_mcstructure(case):
    """Bedrock: block_position_data by block index (x, y, z order, z fastest): a Chest with the
    loot table's file, a MobSpawner with its EntityIdentifier."""
    from test_mcstructure import read_mcstructure

    folder, points, mobs, shape = case
    data = (folder / "d.mcstructure").read_bytes()
    blocks, *_ = read_mcstructure(data)
    root = nbtlib.File.parse(io.BytesIO(data), byteorder="little")
    height, length = shape[0], shape[1]
    found = {}
    for index, entry in root["structure"]["palette"]["default"]["block_position_data"].items():
        x, rest = divmod(int(index), height * length)
        y, z = divmod(rest, length)
        tag = entry["block_entity_data"]
        assert (int(tag["x"]), int(tag["y"]), int(tag["z"])) == (x, y, z)
        if tag["id"] == "Chest":
            table = re.fullmatch(r"loot_tables/(chests/[a-z_]+)\.json", str(tag["LootTable"])).group(1)
            found[(y, z, x)] = ("loot", f"minecraft:{table}")
        else:
            assert tag["id"] == "MobSpawner"
            found[(y, z, x)] = ("mob", str(tag["EntityIdentifier"]))
    names = {"monster": "minecraft:mob_spawner", "item": "minecraft:chest", "treasure": "minecraft:chest"}
    assert check(found, lambda y, z, x: blocks[y, z, x], points, ".mcstructure", block_names=names) == mobs


def test_the_locked_door_is_an_ordinary_door_in_minecraft(tmp_path):
    """No vanilla door needs a key (the Lock tag is for containers): --lock leaves a plain door."""
    run("dungeon", "10x14", "--seed", 3, "--lock", "-o", tmp_path / "l.schem")
    schem = read_schem((tmp_path / "l.schem").read_bytes())
    assert schem.block_entities == []
    assert any("_door[" in state for state in schem.palette)


@pytest.mark.parametrize("mc_version", ["1.13", "1.18", "1.20.4", "1.21.10"])
def test_chest_spawner_and_mobs_exist_in_minecraft_data(mc_version):
    """The states written for spawn points and the mobs the spawners name are the game's own, as
    minecraft-data (tables extracted from the game) lists them for the release."""
    from blockmaze.export.minecraft.blockdata import check_state
    from blockmaze.materials import DEFAULT_MINECRAFT
    from test_blockdata import java_blocks, mcdata_json, mcdata_path, unknown_to_mcdata

    java_blocks(mc_version)  # skips, saying how to install it, without minecraft-data
    for state in DEFAULT_MINECRAFT.values():
        check_state(state, mc_version)
        assert not unknown_to_mcdata(state, mc_version), f"{state} is not a {mc_version} block state"
    entities = {e["name"] for e in mcdata_json(mcdata_path("pc", mc_version, "entities") + "/entities.json")}
    assert {mob.removeprefix("minecraft:") for mob in MOB_IDS} <= entities


def test_streamed_and_tiled_schem_hold_the_same_block_entities(tmp_path):
    """A dungeon volume written whole, from bands and as 16x16 tiles: the same block entities at
    the same places (tiles: each relative to its own corner, placed by its offset)."""
    from blockmaze.export import volume_slices
    from blockmaze.export.minecraft.sponge import write_schem, write_schem_bands, write_schem_tiles
    from blockmaze.materials import load_theme
    from blockmaze.pipeline import stand_up

    level = generate_dungeon((10, 14), 5, spawns=SPAWNS, spacing=2).levels[0]
    volume, theme = stand_up(level.marked_plan), load_theme()
    whole, banded = io.BytesIO(), io.BytesIO()
    write_schem(volume, whole, theme, seed=5)
    write_schem_bands(lambda: volume_slices(volume), banded, theme, seed=5)
    expected = {yzx(e["Pos"]): e for e in read_schem(whole.getvalue()).block_entities}
    assert len(expected) == sum(SPAWNS)
    assert {yzx(e["Pos"]): e for e in read_schem(banded.getvalue()).block_entities} == expected
    tiled = {}
    for path in write_schem_tiles(volume, tmp_path / "t.schem", theme, 16, seed=5):
        schem = read_schem(path.read_bytes())
        x0, _, z0 = schem.we_offset
        for e in schem.block_entities:
            y, z, x = yzx(e["Pos"])
            tiled[(y, z + z0, x + x0)] = {**e, "Pos": [x + x0, y, z + z0]}
    assert tiled == expected


@pytest.mark.slow
@pytest.mark.parametrize("style", ["rooms-and-mazes", "caves", "bsp", "digger", "mixed"])
def test_stairwells_never_take_a_spawn_point(style):
    """Spawn points keep clear of stairs, so the wells a stacked build cuts by its stairs leave
    every spawn point's floor block in place, even at the closest spacing."""
    from blockmaze.dungeon import stack_dungeon
    from blockmaze.materials import Material

    for seed in range(6):
        dungeon = generate_dungeon((10, 14), seed, style=style, levels=3, spawns=(6, 4, 3), spacing=1)
        volume = stack_dungeon(dungeon, HEIGHT, True, False)
        for number, level in enumerate(dungeon.levels):
            floor = (len(dungeon.levels) - 1 - number) * (HEIGHT + 1)
            kinds = {"monster": Material.MONSTER, "item": Material.ITEM, "treasure": Material.TREASURE}
            for e in level.entities:
                if e.kind in kinds:
                    assert volume[floor, e.z, e.x] == kinds[e.kind], (style, seed, number, e)
