"""Legacy MCEdit ``.schematic`` output, read back with twoolie's ``NBT`` and a strict checker.

The checker below is written from docs/minecraft.md §2 (root ``Schematic``,
``Materials`` = ``Alpha``, Short dims, Byte_Array ``Blocks``/``Data``, optional ``AddBlocks``
nibbles, index ``y*W*L + z*W + x``, all six ``WEOrigin``/``WEOffset`` Ints or none, typed lists).
The expected numeric ids are typed in here from Minecraft 1.12's block list, not taken from
blockmaze's table.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nbt import nbt

import blockmaze as bm
from blockmaze.export.minecraft.placement import player_spot
from blockmaze.export.minecraft import legacy
from schem_checker import TAG_NAMES, SchemError, parse_nbt

THEME = bm.load_theme()
# Minecraft 1.12 (id, data) of every state the shipped themes use that 1.12 has.
IDS_1_12 = {
    "minecraft:air": (0, 0),
    "minecraft:stone_bricks": (98, 0),
    "minecraft:mossy_stone_bricks": (98, 1),
    "minecraft:cracked_stone_bricks": (98, 2),
    "minecraft:smooth_stone": (43, 8),  # the seamless double stone slab
    "minecraft:gold_block": (41, 0),
    "minecraft:emerald_block": (133, 0),
    "minecraft:iron_block": (42, 0),
    "minecraft:diamond_block": (57, 0),
    "minecraft:yellow_concrete": (251, 4),
    "minecraft:cyan_concrete": (251, 9),
    "minecraft:yellow_wool": (35, 4),
    "minecraft:light_blue_wool": (35, 3),
    "minecraft:redstone_block": (152, 0),
    "minecraft:glowstone": (89, 0),
    "minecraft:sea_lantern": (169, 0),
    "minecraft:glass": (20, 0),
    "minecraft:white_concrete": (251, 0),
    "minecraft:lime_concrete": (251, 5),
    "minecraft:blue_concrete": (251, 11),
    "minecraft:red_concrete": (251, 14),
    "minecraft:lime_wool": (35, 5),
    "minecraft:red_wool": (35, 14),
    "minecraft:grass_block[snowy=false]": (2, 0),
    "minecraft:coarse_dirt": (3, 1),
    "minecraft:gravel": (13, 0),
    # leaves: 0 oak, 2 birch, + 4 = no decay
    "minecraft:oak_leaves[distance=7,persistent=true]": (18, 4),
    "minecraft:birch_leaves[distance=7,persistent=true]": (18, 6),
    # fence gates: facing south 0 / west 1 / north 2 / east 3, + 4 open
    "minecraft:oak_fence_gate[facing=north,in_wall=false,open=true,powered=false]": (107, 6),
    "minecraft:dark_oak_fence_gate[facing=north,in_wall=false,open=true,powered=false]": (186, 6),
    # doors, lower half: facing east 0 / south 1 / west 2 / north 3, + 4 open (the upper half
    # holds hinge and powered, + 8); spruce 193, dark oak 197
    "minecraft:spruce_door[facing=north,half=lower,hinge=left,open=false,powered=false]": (193, 3),
    "minecraft:dark_oak_door[facing=north,half=lower,hinge=left,open=false,powered=false]": (197, 3),
    # stairs: facing east 0 / west 1 / south 2 / north 3, + 4 upside down
    "minecraft:stone_brick_stairs[facing=north,half=bottom,shape=straight,waterlogged=false]": (109, 3),
    "minecraft:spruce_stairs[facing=north,half=bottom,shape=straight,waterlogged=false]": (134, 3),
    "minecraft:quartz_stairs[facing=north,half=bottom,shape=straight,waterlogged=false]": (156, 3),
    # spawn points: the monster spawner 52; a chest 54, facing north 2 / south 3 / west 4 / east 5
    "minecraft:spawner": (52, 0),
    "minecraft:chest[facing=north,type=single,waterlogged=false]": (54, 2),
}
NOT_IN_1_12 = {"minecraft:scaffolding", "minecraft:deepslate_bricks", "minecraft:cracked_deepslate_bricks",
               "minecraft:deepslate_tiles", "minecraft:polished_deepslate", "minecraft:deepslate_brick_stairs"}
MATERIALS_1_12 = [m for m in bm.Material if m not in (bm.Material.STAIRS, bm.Material.DOOR)]  # stairs and doors face by their neighbours (test_placement.py)


# --- the checker --------------------------------------------------------------------------------


@dataclass
class LegacySchematic:
    width: int
    height: int
    length: int
    ids: np.ndarray  # (y, z, x)
    data: np.ndarray  # (y, z, x)
    has_add_blocks: bool
    we: dict


def _tag(compound, name, tag_id, path=""):
    if name not in compound:
        raise SchemError(f"{path}{name} is missing")
    tag = compound[name]
    if tag.id != tag_id:
        raise SchemError(f"{path}{name} must be a {TAG_NAMES[tag_id]}, found {TAG_NAMES.get(tag.id, tag.id)}")
    return tag


def read_legacy(source) -> LegacySchematic:
    """Check every rule of §2 and decode the ids and data values, shaped (y, z, x)."""
    root = parse_nbt(source)  # gzip magic, mtime 0, the NBT fills the file
    if root.name != "Schematic":
        raise SchemError(f"the root tag is named {root.name!r}; an MCEdit schematic's is 'Schematic'")
    materials = _tag(root, "Materials", nbt.TAG_STRING).value
    if materials != "Alpha":
        raise SchemError(f"Materials is {materials!r}, not 'Alpha'")
    width, height, length = (_tag(root, n, nbt.TAG_SHORT).value & 0xFFFF for n in ("Width", "Height", "Length"))
    count = width * height * length
    blocks = np.frombuffer(bytes(_tag(root, "Blocks", nbt.TAG_BYTE_ARRAY).value), dtype=np.uint8)
    data = np.frombuffer(bytes(_tag(root, "Data", nbt.TAG_BYTE_ARRAY).value), dtype=np.uint8)
    if len(blocks) != count or len(data) != count:
        raise SchemError(f"Blocks/Data hold {len(blocks)}/{len(data)} bytes for {count} blocks")
    if (data > 15).any():
        raise SchemError("a Data value is over 15 (data values are 4 bits)")
    ids = blocks.astype(np.uint16)
    add = "AddBlocks" in root
    if add:
        nibbles = np.frombuffer(bytes(_tag(root, "AddBlocks", nbt.TAG_BYTE_ARRAY).value), dtype=np.uint8)
        if len(nibbles) != (count + 1) // 2:
            raise SchemError(f"AddBlocks holds {len(nibbles)} bytes for {count} blocks")
        high = np.empty(2 * len(nibbles), dtype=np.uint16)
        high[0::2], high[1::2] = nibbles & 0x0F, nibbles >> 4  # even index: low nibble
        ids = ids | (high[:count] << 8)
    we_names = [f"WE{kind}{axis}" for kind in ("Origin", "Offset") for axis in "XYZ"]
    present = [n for n in we_names if n in root]
    if present and len(present) != 6:
        raise SchemError(f"WEOrigin/WEOffset come all six or none; found {', '.join(present)}")
    we = {n: _tag(root, n, nbt.TAG_INT).value for n in present}
    for name in ("TileEntities", "Entities"):
        tag = _tag(root, name, nbt.TAG_LIST)
        if tag.tagID != nbt.TAG_COMPOUND:
            raise SchemError(f"{name} must be a list of TAG_Compound, its element type is "
                             f"{TAG_NAMES.get(tag.tagID, tag.tagID)}")
    shape = (height, length, width)
    return LegacySchematic(width, height, length, ids.reshape(shape), data.reshape(shape).copy(), add, we)


# --- helpers ------------------------------------------------------------------------------------


def maze_volume(rows=4, cols=5, seed=3, roof=False):
    plan = bm.to_blocks(bm.generate((rows, cols), rng=seed), wall=1, passage=1)
    return bm.extrude(plan, height=3, floor=True, roof=roof)


def random_volume(shape, seed):
    """Random materials except stairs (scaffolding, absent from 1.12) in a (y, z, x) volume."""
    rng = np.random.default_rng(seed)
    return np.array(MATERIALS_1_12, dtype=np.uint8)[rng.integers(0, len(MATERIALS_1_12), size=shape)]


def schematic_bytes(volume, theme=THEME, **options) -> bytes:
    out = io.BytesIO()
    bm.write(volume, out, format="schematic", theme=theme, **options)
    return out.getvalue()


def expected_ids(volume, theme=THEME):
    table = np.zeros((256, 2), dtype=np.uint16)
    for material, state in theme.minecraft.items():
        if state in IDS_1_12:
            table[int(material)] = IDS_1_12[state]
    return table[volume, 0], table[volume, 1]


def assert_same(found, expected, what):
    assert found.shape == expected.shape
    differ = np.argwhere(found != expected)
    if differ.size:
        y, z, x = differ[0]
        pytest.fail(f"{len(differ)} {what} differ; first at x={x}, y={y}, z={z}: "
                    f"{found[y, z, x]} != {expected[y, z, x]}")


def assert_matches(volume, data, theme=THEME):
    schematic = read_legacy(data)
    height, length, width = volume.shape
    assert (schematic.width, schematic.height, schematic.length) == (width, height, length)
    ids, values = expected_ids(volume, theme)
    assert_same(schematic.ids, ids, "ids")
    assert_same(schematic.data, values, "data values")
    return schematic


VOLUMES = {
    "maze": lambda: maze_volume(),
    "maze-roofed": lambda: maze_volume(3, 6, seed=9, roof=True),
    "asymmetric-random": lambda: random_volume((3, 5, 7), seed=11),
    "fortran-order": lambda: np.asfortranarray(random_volume((4, 3, 6), seed=12)),
    "strided-view": lambda: random_volume((4, 6, 9), seed=13)[::-1, :, ::2],
}


# --- round trips --------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", VOLUMES)
def test_checker_reads_volume(kind):
    """The strict checker accepts the file and reads the 1.12 ids and data back block for block."""
    volume = VOLUMES[kind]()
    schematic = assert_matches(volume, schematic_bytes(volume))
    # WorldEdit pastes the min corner at player + WEOffset: the player stands outside (placement)
    offset = dict(zip("XYZ", player_spot(volume).offset, strict=True))
    assert schematic.we == {f"WE{k}{a}": 0 if k == "Origin" else offset[a]
                            for k in ("Origin", "Offset") for a in "XYZ"}
    assert not schematic.has_add_blocks


def test_axis_order_single_block():
    """A wall block at x=4, y=1, z=2 of a 7 wide, 3 high, 5 long box lands there, flat index too."""
    volume = np.zeros((3, 5, 7), np.uint8)
    volume[1, 2, 4] = bm.Material.WALL
    data = schematic_bytes(volume)
    schematic = assert_matches(volume, data)
    assert np.argwhere(schematic.ids == 98).tolist() == [[1, 2, 4]]
    root = parse_nbt(data)
    flat = bytes(root["Blocks"].value)
    assert flat.index(98) == 1 * 7 * 5 + 2 * 7 + 4  # y*W*L + z*W + x


@pytest.mark.slow
@pytest.mark.parametrize("theme", ["stone-bricks", "glass", "hedge"])
def test_every_1_12_theme_state_has_its_real_id(theme):
    """Each state the theme draws (variants included, via a seed) gets its real 1.12 id:data."""
    theme = bm.load_theme(theme)
    for material in MATERIALS_1_12:
        for state, _ in theme.minecraft_choices(material):
            assert legacy.legacy_id(state) == IDS_1_12[state], state
    volume = random_volume((4, 9, 11), seed=7)
    # gravel (the hedge's path) over air would stand alone as cobblestone (test_placement.py)
    volume[:-1][(volume[1:] == bm.Material.PATH) & (volume[:-1] == bm.Material.AIR)] = bm.Material.WALL
    assert_matches(volume, schematic_bytes(volume, theme), theme)
    seeded = read_legacy(schematic_bytes(maze_volume(9, 9), theme, seed=5))
    found = set(zip(seeded.ids.ravel().tolist(), seeded.data.ravel().tolist(), strict=True))
    assert found <= set(IDS_1_12.values())


def test_seeded_variants_are_drawn():
    """With a seed, mossy and cracked stone bricks (98:1, 98:2) appear among the walls."""
    schematic = read_legacy(schematic_bytes(maze_volume(10, 10), seed=3))
    walls = set(schematic.data[schematic.ids == 98].tolist())
    assert walls == {0, 1, 2}


def test_read_by_twoolie_nbt_directly():
    """twoolie's NBT reads the file on its own: the root name, tag types and sizes are as written."""
    volume = maze_volume(2, 3)
    nbtfile = nbt.NBTFile(fileobj=io.BytesIO(schematic_bytes(volume)))  # it gunzips itself
    assert nbtfile.name == "Schematic"
    assert nbtfile["Materials"].value == "Alpha"
    assert len(nbtfile["Blocks"].value) == volume.size


# --- errors -------------------------------------------------------------------------------------


def custom_copy(name: str) -> bm.Theme:
    """A shipped theme under another name: a custom theme, checked but never substituted."""
    import dataclasses
    return dataclasses.replace(bm.load_theme(name), name=f"my-{name}")


def test_custom_deepslate_theme_is_a_clear_error_and_leaves_no_file(tmp_path):
    """deepslate does not exist in 1.12: the error names the material and block, no file is left."""
    with pytest.raises(bm.BlockmazeError, match=r"material wall as minecraft:deepslate_bricks.*1\.17"):
        bm.write(maze_volume(), tmp_path / "maze.schematic", theme=custom_copy("deepslate-dungeon"))
    assert list(tmp_path.iterdir()) == []


def test_custom_scaffolding_is_a_clear_error():
    """Scaffolding came in 1.14: a custom theme that draws stairs with it is refused."""
    import dataclasses

    theme = custom_copy("stone-bricks")
    theme = dataclasses.replace(theme, minecraft={**theme.minecraft, bm.Material.STAIRS: "minecraft:scaffolding"})
    volume = np.full((1, 2, 2), bm.Material.STAIRS, np.uint8)
    with pytest.raises(bm.BlockmazeError, match=r"material stairs as minecraft:scaffolding.*1\.14"):
        schematic_bytes(volume, theme)


def test_builtin_themes_substitute_what_1_12_lacks():
    """Built-in themes draw stone bricks for deepslate (stairs too) and climb a shaft on a ladder
    where later releases have scaffolding (data/substitutions.json); the ids are 1.12's: stone
    bricks 98, smooth stone = double stone slab 43:8, a ladder 65 hung on the block to its west
    (facing east = 5), stone brick stairs 109 rising west (1) to the shaft beside them."""
    S, W, F, A = bm.Material.STAIRS, bm.Material.WALL, bm.Material.FLOOR, bm.Material.AIR
    volume = np.array([[[W, F, S, S]], [[W, F, S, A]]], np.uint8)  # a 2-block shaft, a step
    nbtfile = nbt.NBTFile(fileobj=io.BytesIO(schematic_bytes(volume, bm.load_theme("deepslate-dungeon"))))
    assert list(nbtfile["Blocks"].value) == [98, 43, 65, 109, 98, 43, 65, 0]
    assert list(nbtfile["Data"].value) == [0, 8, 5, 1, 0, 8, 5, 0]


def test_variant_without_id_fails_whatever_the_seed():
    """A variant 1.12 lacks is refused even without a seed (when the main state would be drawn)."""
    theme = bm.Theme("mixed", "", {bm.Material.AIR: "minecraft:air", bm.Material.WALL: "minecraft:stone_bricks"},
                     {bm.Material.WALL: (("minecraft:stone_bricks", 9.0), ("minecraft:deepslate_tiles", 1.0))})
    with pytest.raises(bm.BlockmazeError, match="deepslate_tiles"):
        schematic_bytes(maze_volume(2, 2), theme)


@pytest.mark.parametrize("state, message", [
    ("minecraft:oak_fence_gate[facing=up,open=true]", "facing=up"),
    ("minecraft:netherite_block", "no Minecraft 1.12 block id"),
])
def test_unknown_states_are_errors(state, message):
    with pytest.raises(bm.BlockmazeError, match=message):
        legacy.legacy_id(state)


def test_ignored_properties_do_not_change_the_id():
    """Properties 1.12 recomputes (in_wall, distance, snowy) are ignored; stored ones count."""
    assert legacy.legacy_id("minecraft:oak_fence_gate[facing=east,in_wall=true,open=false,powered=true]") == (107, 11)
    assert legacy.legacy_id("minecraft:oak_leaves[distance=1,persistent=false]") == (18, 0)
    assert legacy.legacy_id("minecraft:grass_block[snowy=true]") == (2, 0)


def test_every_table_state_and_missing_block_is_distinct():
    """The shipped table covers every state of every shipped theme, or names the release that added it."""
    for name in bm.theme_names():
        theme = bm.load_theme(name)
        for material in bm.Material:
            if material in theme.minecraft:
                for state, _ in theme.minecraft_choices(material):
                    block = state.split("[")[0]
                    assert state in IDS_1_12 or block in NOT_IN_1_12, state
                    if block in NOT_IN_1_12:
                        with pytest.raises(bm.BlockmazeError, match="does not exist in Minecraft 1.12"):
                            legacy.legacy_id(state)


def test_ids_over_255_use_add_blocks(monkeypatch):
    """An id above 255 puts its high bits in AddBlocks nibbles (even index low, odd index high)."""
    table = json.loads(json.dumps(legacy._table()))
    table["blocks"]["minecraft:glass"] = {"id": 0x2A5, "data": 3}
    table["blocks"]["minecraft:white_concrete"] = {"id": 0x1FF, "data": 0}
    monkeypatch.setattr(legacy, "_table", lambda: table)
    theme = bm.load_theme("glass")
    volume = random_volume((3, 3, 5), seed=1)  # 45 blocks: an odd count, the last nibble is padding
    schematic = read_legacy(schematic_bytes(volume, theme))
    assert schematic.has_add_blocks
    wall = volume == bm.Material.WALL
    floor = volume == bm.Material.FLOOR
    assert (schematic.ids[wall] == 0x2A5).all() and (schematic.data[wall] == 3).all()
    assert (schematic.ids[floor] == 0x1FF).all()
    assert (schematic.ids[~(wall | floor | (volume == bm.Material.ROOF))] < 256).all()


def test_size_limits():
    with pytest.raises(bm.BlockmazeError, match="each side holds at most 65535"):
        legacy.check_size((1, 1, 70000))


# --- files --------------------------------------------------------------------------------------


def test_same_seed_gives_identical_bytes(tmp_path):
    paths = [tmp_path / "a.schematic", tmp_path / "b.schematic"]
    for path in paths:
        bm.write(maze_volume(5, 6, seed=42), path, seed=42)
    assert paths[0].read_bytes() == paths[1].read_bytes()


def test_side_of_40000_round_trips_unsigned():
    volume = np.zeros((1, 1, 40000), np.uint8)
    volume.flat[::3] = bm.Material.WALL
    assert read_legacy(schematic_bytes(volume)).width == 40000
    assert_matches(volume, schematic_bytes(volume))


@settings(max_examples=25, deadline=None)
@given(shape=st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)),
       seed=st.integers(0, 2**32 - 1))
def test_random_volumes_round_trip(shape, seed):
    volume = random_volume(shape, seed)
    assert_matches(volume, schematic_bytes(volume))


# --- the checker rejects broken files -----------------------------------------------------------


def _edit(edit):
    import gzip

    import nbtlib

    def tamper(data):
        root = nbtlib.File.parse(io.BytesIO(gzip.decompress(data)))
        edit(root)
        raw = io.BytesIO()
        root.write(raw)
        return gzip.compress(raw.getvalue(), mtime=0)
    return tamper


BROKEN = [
    pytest.param(_edit(lambda r: setattr(r, "root_name", "")), "root tag is named ''", id="root-unnamed"),
    pytest.param(_edit(lambda r: r.update(Materials=__import__("nbtlib").String("Pocket"))), "not 'Alpha'",
                 id="materials-pocket"),
    pytest.param(_edit(lambda r: r.update(Width=__import__("nbtlib").Int(r["Width"]))), "Width must be a TAG_Short",
                 id="width-as-int"),
    pytest.param(_edit(lambda r: r.pop("WEOffsetY")), "all six or none", id="five-we-fields"),
    pytest.param(_edit(lambda r: r.update(Data=r["Data"][:-1])), "Blocks/Data hold", id="data-short"),
    pytest.param(_edit(lambda r: r.update(Entities=__import__("nbtlib").List([]))), "TAG_End",
                 id="entities-end-typed"),
    pytest.param(_edit(lambda r: r.pop("TileEntities")), "TileEntities is missing", id="no-tile-entities"),
]


@pytest.mark.parametrize("tamper, message", BROKEN)
def test_checker_rejects_broken_file(tamper, message):
    with pytest.raises(SchemError, match=message):
        read_legacy(tamper(schematic_bytes(maze_volume(2, 3))))
