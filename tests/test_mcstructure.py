"""Bedrock ``.mcstructure`` output, read back by the ``mcstructure`` package and a strict checker.

The checker parses with PyNBT (the NBT library behind ``mcstructure``, not the nbtlib the writer
uses) and checks docs/minecraft.md §7: uncompressed little-endian NBT, an
unnamed root, ``format_version`` 1, ``size`` a List of 3 Int, exactly two ``block_indices`` layers
(the second all -1), typed ``entities``, ``palette.default.block_palette`` entries of
``{name: String, states: Compound, version: Int}``, ``block_position_data`` and
``structure_world_origin``; blocks in x, y, z order with z fastest. The expected Bedrock states
are typed in here (Bedrock 1.21.90 names and state types), not taken from blockmaze's table.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
import pynbt
from hypothesis import given, settings
from hypothesis import strategies as st
from mcstructure import Structure

import blockmaze as bm
from blockmaze.export.minecraft import bedrock

THEME = bm.load_theme()
B, I, S = "byte", "int", "string"  # noqa: E741 - the NBT tag letters
GATE_OPEN_NORTH = {"in_wall_bit": (B, 0), "minecraft:cardinal_direction": (S, "north"), "open_bit": (B, 1)}
PERSISTENT = {"persistent_bit": (B, 1), "update_bit": (B, 0)}
# Java state -> (Bedrock name, {state: (type, value)}), for every state of the shipped themes.
BEDROCK = {
    "minecraft:air": ("minecraft:air", {}),
    "minecraft:stone_bricks": ("minecraft:stone_bricks", {}),
    "minecraft:mossy_stone_bricks": ("minecraft:mossy_stone_bricks", {}),
    "minecraft:cracked_stone_bricks": ("minecraft:cracked_stone_bricks", {}),
    "minecraft:smooth_stone": ("minecraft:smooth_stone", {}),
    "minecraft:gold_block": ("minecraft:gold_block", {}),
    "minecraft:emerald_block": ("minecraft:emerald_block", {}),
    "minecraft:iron_block": ("minecraft:iron_block", {}),
    "minecraft:diamond_block": ("minecraft:diamond_block", {}),
    "minecraft:yellow_concrete": ("minecraft:yellow_concrete", {}),
    "minecraft:cyan_concrete": ("minecraft:cyan_concrete", {}),
    "minecraft:yellow_wool": ("minecraft:yellow_wool", {}),
    "minecraft:light_blue_wool": ("minecraft:light_blue_wool", {}),
    "minecraft:redstone_block": ("minecraft:redstone_block", {}),
    "minecraft:sea_lantern": ("minecraft:sea_lantern", {}),
    "minecraft:glowstone": ("minecraft:glowstone", {}),
    "minecraft:glass": ("minecraft:glass", {}),
    "minecraft:white_concrete": ("minecraft:white_concrete", {}),
    "minecraft:lime_concrete": ("minecraft:lime_concrete", {}),
    "minecraft:blue_concrete": ("minecraft:blue_concrete", {}),
    "minecraft:red_concrete": ("minecraft:red_concrete", {}),
    "minecraft:lime_wool": ("minecraft:lime_wool", {}),
    "minecraft:red_wool": ("minecraft:red_wool", {}),
    "minecraft:gravel": ("minecraft:gravel", {}),
    "minecraft:coarse_dirt": ("minecraft:coarse_dirt", {}),
    "minecraft:grass_block[snowy=false]": ("minecraft:grass_block", {}),
    "minecraft:oak_leaves[distance=7,persistent=true]": ("minecraft:oak_leaves", PERSISTENT),
    "minecraft:birch_leaves[distance=7,persistent=true]": ("minecraft:birch_leaves", PERSISTENT),
    "minecraft:deepslate_bricks": ("minecraft:deepslate_bricks", {}),
    "minecraft:cracked_deepslate_bricks": ("minecraft:cracked_deepslate_bricks", {}),
    "minecraft:deepslate_tiles": ("minecraft:deepslate_tiles", {}),
    "minecraft:polished_deepslate": ("minecraft:polished_deepslate", {}),
    "minecraft:oak_fence_gate[facing=north,in_wall=false,open=true,powered=false]":
        ("minecraft:fence_gate", GATE_OPEN_NORTH),
    "minecraft:dark_oak_fence_gate[facing=north,in_wall=false,open=true,powered=false]":
        ("minecraft:dark_oak_fence_gate", GATE_OPEN_NORTH),
    "minecraft:scaffolding[bottom=false,distance=0,waterlogged=false]":
        ("minecraft:scaffolding", {"stability": (I, 0), "stability_check": (B, 0)}),
    # doors, closed, lower half: Java facing north = minecraft:cardinal_direction east (Bedrock's
    # doors face a quarter turn clockwise of Java's: data/bedrock_blocks.json)
    **{f"minecraft:{name}[facing=north,half=lower,hinge=left,open=false,powered=false]":
       (f"minecraft:{name}", {"door_hinge_bit": (B, 0), "minecraft:cardinal_direction": (S, "east"),
                              "open_bit": (B, 0), "upper_block_bit": (B, 0)})
       for name in ("spruce_door", "dark_oak_door")},
    # stairs: Java facing north = weirdo_direction 3 (east 0, west 1, south 2), half bottom =
    # upside_down_bit 0 (minecraft-data bedrock/1.19.1/blockMappings.json)
    **{f"minecraft:{name}[facing=north,half=bottom,shape=straight,waterlogged=false]":
       (f"minecraft:{name}", {"upside_down_bit": (B, 0), "weirdo_direction": (I, 3)})
       for name in ("stone_brick_stairs", "deepslate_brick_stairs", "spruce_stairs", "quartz_stairs")},
    # spawn points: Bedrock's chest faces with minecraft:cardinal_direction, its spawner is
    # mob_spawner (minecraft-data bedrock/1.26.60/blockStates.json, bedrock/1.26.30/blocksJ2B.json)
    "minecraft:spawner": ("minecraft:mob_spawner", {}),
    "minecraft:chest[facing=north,type=single,waterlogged=false]":
        ("minecraft:chest", {"minecraft:cardinal_direction": (S, "north")}),
}
# The palette version Bedrock writes (our names are 1.21.90's): block states 1.21.60.33, packed
# major<<24 | minor<<16 | patch<<8 | revision. Sources: minecraft-data 3.119.0
# bedrock/{1.21.60,...,1.21.80,1.21.100,...,1.26.60}/blockStates.json (the game's own palette)
# give every state version 18168865 (tests/test_blockdata.py re-checks this when minecraft-data
# is installed); AllayMC/Allay api/src/main/java/org/allaymc/api/network/ProtocolInfo.java at
# 497f5bfe (Bedrock 1.21.80-1.21.100): BLOCK_STATE_VERSION = SemVersion(1, 21, 60, 33, 0).
BLOCK_STATES_1_21_60_33 = 18168865
assert BLOCK_STATES_1_21_60_33 == 1 << 24 | 21 << 16 | 60 << 8 | 33
TYPES = {pynbt.TAG_Byte: B, pynbt.TAG_Int: I, pynbt.TAG_String: S}


class StructureError(ValueError):
    """A .mcstructure breaks a rule of §7."""


# materials whose block state does not depend on the neighbours (a DOOR's facing and half do;
# tests of oriented states are in test_placement.py); spawn points, which carry block entities,
# are tested in test_spawn_points.py
FREE_STANDING = [int(m) for m in bm.Material if m not in (bm.Material.DOOR, bm.Material.STAIRS,
                                                          bm.Material.MONSTER, bm.Material.ITEM,
                                                          bm.Material.TREASURE)]


def key(name: str, states: dict) -> str:
    """One comparable string for a Bedrock block: name plus typed states, sorted."""
    return name + "{" + ",".join(f"{k}:{t}:{v}" for k, (t, v) in sorted(states.items())) + "}"


# --- the checker --------------------------------------------------------------------------------


def _get(compound, name, tag_type, path):
    if name not in compound:
        raise StructureError(f"{path}{name} is missing")
    tag = compound[name]
    if type(tag) is not tag_type:
        raise StructureError(f"{path}{name} must be a {tag_type.__name__}, found {type(tag).__name__}")
    return tag


def _list(compound, name, element, path, length=None):
    tag = _get(compound, name, pynbt.TAG_List, path)
    if tag.type_ is not element:
        raise StructureError(f"{path}{name} must be a list of {element.__name__}, "
                             f"its element type is {getattr(tag.type_, '__name__', tag.type_)}")
    if length is not None and len(tag) != length:
        raise StructureError(f"{path}{name} holds {len(tag)} entries, not {length}")
    return tag


def read_mcstructure(data: bytes):
    """Check the file and return its blocks as comparable strings (y, z, x) and the palette."""
    if data[:2] == b"\x1f\x8b":
        raise StructureError("the file is gzipped; a .mcstructure is uncompressed")
    stream = io.BytesIO(data)
    try:
        root = pynbt.NBTFile(stream, little_endian=True)
    except Exception as error:  # PyNBT raises plain exceptions on broken input
        raise StructureError(f"not little-endian NBT: {error}") from None
    if stream.tell() != len(data):
        raise StructureError(f"{len(data) - stream.tell()} bytes follow the root tag")
    if root.name != "":
        raise StructureError(f"the root tag is named {root.name!r}, not ''")
    if _get(root, "format_version", pynbt.TAG_Int, "").value != 1:
        raise StructureError("format_version must be 1")
    width, height, length = (t.value for t in _list(root, "size", pynbt.TAG_Int, "", 3))
    if min(width, height, length) < 1:
        raise StructureError(f"size {width}x{height}x{length} is empty")
    origin = _list(root, "structure_world_origin", pynbt.TAG_Int, "", 3)
    structure = _get(root, "structure", pynbt.TAG_Compound, "")
    layers = _list(structure, "block_indices", pynbt.TAG_List, "structure.", 2)
    count = width * height * length
    arrays = []
    for i, layer in enumerate(layers):
        if layer.type_ is not pynbt.TAG_Int or len(layer) != count:
            raise StructureError(f"block_indices[{i}] must be {count} TAG_Int")
        arrays.append(np.array([t.value for t in layer], dtype=np.int64))
    if (arrays[1] != -1).any():
        raise StructureError("the second (water-logging) layer must be all -1")
    _list(structure, "entities", pynbt.TAG_Compound, "structure.")
    default = _get(_get(structure, "palette", pynbt.TAG_Compound, "structure."), "default",
                   pynbt.TAG_Compound, "structure.palette.")
    _get(default, "block_position_data", pynbt.TAG_Compound, "structure.palette.default.")
    entries = _list(default, "block_palette", pynbt.TAG_Compound, "structure.palette.default.")
    palette, versions = [], set()
    for n, entry in enumerate(entries):
        where = f"block_palette[{n}]."
        name = _get(entry, "name", pynbt.TAG_String, where).value
        states = {k: (TYPES[type(v)], v.value) for k, v in _get(entry, "states", pynbt.TAG_Compound, where).items()}
        versions.add(_get(entry, "version", pynbt.TAG_Int, where).value)
        palette.append(key(name, states))
    primary = arrays[0]
    if primary.min() < 0 or primary.max() >= len(palette):
        raise StructureError("a block index is outside the palette")
    blocks = np.array(palette, dtype=object)[primary].reshape(width, height, length).transpose(1, 2, 0)
    return blocks, palette, versions, [t.value for t in origin]


# --- helpers ------------------------------------------------------------------------------------


def maze_volume(rows=4, cols=5, seed=3, roof=False):
    plan = bm.to_blocks(bm.generate((rows, cols), rng=seed), wall=1, passage=1)
    return bm.extrude(plan, height=3, floor=True, roof=roof)


def random_volume(shape, seed):
    return np.random.default_rng(seed).choice(FREE_STANDING, size=shape).astype(np.uint8)


def mcstructure_bytes(volume, theme=THEME, **options) -> bytes:
    out = io.BytesIO()
    bm.write(volume, out, format="mcstructure", theme=theme, **options)
    return out.getvalue()


def expected_blocks(volume, theme=THEME):
    table = np.full(256, None, dtype=object)
    for material, state in theme.minecraft.items():
        table[int(material)] = key(*BEDROCK[state])
    return table[volume]


def assert_same(found, expected):
    assert found.shape == expected.shape, f"shape (y, z, x) {found.shape} != {expected.shape}"
    differ = np.argwhere(found != expected)
    if differ.size:
        y, z, x = differ[0]
        pytest.fail(f"{len(differ)} blocks differ; first at x={x}, y={y}, z={z}: "
                    f"{found[y, z, x]!r} != {expected[y, z, x]!r}")


def mcstructure_package_blocks(data: bytes) -> np.ndarray:
    """The blocks as the third-party ``mcstructure`` package reads them, as (y, z, x) strings."""
    structure = Structure.load(io.BytesIO(data))
    names = np.array([key(b.identifier, {k: ("?", v) for k, v in b.states.items()})
                      for b in structure.palette], dtype=object)
    return names[structure.structure].transpose(1, 2, 0)  # its array is (x, y, z)


def nbtlib_blocks(data: bytes) -> np.ndarray:
    """The blocks as nbtlib reads the little-endian file, as typed (y, z, x) strings."""
    import nbtlib

    root = nbtlib.File.parse(io.BytesIO(data), byteorder="little")
    width, height, length = (int(v) for v in root["size"])
    names = {nbtlib.Byte: B, nbtlib.Int: I, nbtlib.String: S}
    palette = [key(str(entry["name"]), {k: (names[type(v)], str(v) if isinstance(v, nbtlib.String) else int(v))
                                        for k, v in entry["states"].items()})
               for entry in root["structure"]["palette"]["default"]["block_palette"]]
    flat = np.array([int(v) for v in root["structure"]["block_indices"][0]])
    return np.array(palette, dtype=object)[flat].reshape(width, height, length).transpose(1, 2, 0)


def untyped(blocks: np.ndarray) -> np.ndarray:
    """Drop the state types (the mcstructure package does not keep them)."""
    def strip(text):
        name, _, rest = text.partition("{")
        parts = [p.split(":") for p in rest[:-1].split(",") if p]
        return name + "{" + ",".join(f"{':'.join(p[:-2])}:?:{p[-1]}" for p in parts) + "}"
    return np.vectorize(strip, otypes=[object])(blocks)


VOLUMES = {
    "maze": lambda: maze_volume(),
    "maze-roofed": lambda: maze_volume(3, 6, seed=9, roof=True),
    "asymmetric-random": lambda: random_volume((3, 5, 7), seed=11),
    "fortran-order": lambda: np.asfortranarray(random_volume((4, 3, 6), seed=12)),
    "strided-view": lambda: random_volume((4, 6, 9), seed=13)[::-1, :, ::2],
}


# --- round trips --------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", VOLUMES)
def test_checker_and_mcstructure_package_read_volume(kind):
    """The checker, the mcstructure package and nbtlib see the theme's Bedrock blocks, block for block, z fastest."""
    volume = VOLUMES[kind]()
    data = mcstructure_bytes(volume)
    blocks, _, versions, origin = read_mcstructure(data)
    expected = expected_blocks(volume)
    assert_same(blocks, expected)
    assert versions == {BLOCK_STATES_1_21_60_33} and origin == [0, 0, 0]
    assert_same(mcstructure_package_blocks(data), untyped(expected))
    assert_same(nbtlib_blocks(data), expected)


def test_axis_order_single_block_z_fastest():
    """One wall block at x=4, y=1, z=2 of a 7 wide, 3 high, 5 long box: flat index x*H*L + y*L + z."""
    volume = np.zeros((3, 5, 7), np.uint8)
    volume[1, 2, 4] = bm.Material.WALL
    data = mcstructure_bytes(volume)
    root = pynbt.NBTFile(io.BytesIO(data), little_endian=True)
    assert [t.value for t in root["size"]] == [7, 3, 5]
    primary = [t.value for t in root["structure"]["block_indices"][0]]
    wall = [i for i, v in enumerate(primary) if v != primary[0]]
    assert wall == [4 * 3 * 5 + 1 * 5 + 2]
    assert Structure.load(io.BytesIO(data)).get_block((4, 1, 2)).identifier == "minecraft:stone_bricks"


@pytest.mark.parametrize("theme", bm.theme_names())
def test_every_shipped_theme_state_is_translated(theme):
    """Every state of every shipped theme (variants included) has its Bedrock name and typed states."""
    theme = bm.load_theme(theme)
    for material in bm.Material:
        if material in theme.minecraft:
            for state, _ in theme.minecraft_choices(material):
                name, states = bedrock.bedrock_state(state)
                typed = {k: ({"Byte": B, "Int": I, "String": S}[type(v).__name__], v if isinstance(v, str) else int(v))
                         for k, v in states.items()}
                assert key(name, typed) == key(*BEDROCK[state]), state
    volume = random_volume((4, 5, 6), seed=3)
    blocks, _, _, _ = read_mcstructure(mcstructure_bytes(volume, theme))
    assert_same(blocks, expected_blocks(volume, theme))
    seeded, palette, _, _ = read_mcstructure(mcstructure_bytes(maze_volume(8, 8), theme, seed=2))
    assert set(palette) <= {key(*v) for v in BEDROCK.values()}


def test_seeded_variants_are_drawn():
    blocks, _, _, _ = read_mcstructure(mcstructure_bytes(maze_volume(10, 10), seed=4))
    assert {"minecraft:mossy_stone_bricks{}", "minecraft:cracked_stone_bricks{}"} <= set(blocks.ravel())


def test_little_endian_uncompressed_and_read_by_nbtlib():
    """The bytes start with an unnamed Compound (0a 00 00); nbtlib little-endian reads them too."""
    import nbtlib

    data = mcstructure_bytes(maze_volume(2, 3))
    assert data[:3] == b"\x0a\x00\x00"
    parsed = nbtlib.File.parse(io.BytesIO(data), byteorder="little")
    assert int(parsed["format_version"]) == 1
    assert len(parsed["structure"]["block_indices"]) == 2


# --- errors and files ---------------------------------------------------------------------------


def test_state_without_bedrock_block_is_a_clear_error(tmp_path):
    theme = bm.Theme("odd", "", {bm.Material.AIR: "minecraft:air", bm.Material.WALL: "minecraft:netherite_block"})
    with pytest.raises(bm.BlockmazeError, match="material wall as minecraft:netherite_block"):
        bm.write(maze_volume(2, 2), tmp_path / "m.mcstructure", theme=theme)
    assert list(tmp_path.iterdir()) == []


def test_unknown_property_value_is_an_error():
    with pytest.raises(bm.BlockmazeError, match="facing=up"):
        bedrock.bedrock_state("minecraft:oak_fence_gate[facing=up]")


def test_same_seed_gives_identical_bytes(tmp_path):
    paths = [tmp_path / "a.mcstructure", tmp_path / "b.mcstructure"]
    for path in paths:
        bm.write(maze_volume(5, 6, seed=42), path, seed=42)
    assert paths[0].read_bytes() == paths[1].read_bytes()


@settings(max_examples=25, deadline=None)
@given(shape=st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)), seed=st.integers(0, 2**32 - 1))
def test_random_volumes_round_trip(shape, seed):
    volume = random_volume(shape, seed)
    blocks, _, _, _ = read_mcstructure(mcstructure_bytes(volume))
    assert_same(blocks, expected_blocks(volume))


# --- the checker rejects broken files -----------------------------------------------------------


def _edit(edit):
    import nbtlib

    def tamper(data):
        root = nbtlib.File.parse(io.BytesIO(data), byteorder="little")
        edit(root)
        out = io.BytesIO()
        root.write(out, byteorder="little")
        return out.getvalue()
    return tamper


def _big_endian(data):
    import nbtlib

    out = io.BytesIO()
    nbtlib.File.parse(io.BytesIO(data), byteorder="little").write(out)
    return out.getvalue()


def _nbt():
    import nbtlib
    return nbtlib


BROKEN = [
    pytest.param(lambda d: __import__("gzip").compress(d, mtime=0), "gzipped", id="gzipped"),
    pytest.param(_big_endian, "not little-endian NBT", id="big-endian"),
    pytest.param(_edit(lambda r: setattr(r, "root_name", "x")), "named 'x'", id="root-named"),
    pytest.param(_edit(lambda r: r["structure"]["block_indices"].pop()), "holds 1 entries", id="one-layer"),
    pytest.param(_edit(lambda r: r["structure"]["block_indices"][1].__setitem__(0, _nbt().Int(0))),
                 "all -1", id="second-layer-not-void"),
    pytest.param(_edit(lambda r: r.update(size=_nbt().IntArray(list(r["size"])))), "size must be a TAG_List",
                 id="size-int-array"),
    pytest.param(_edit(lambda r: r["structure"].update(entities=_nbt().List([]))), "TAG_End",
                 id="entities-end-typed"),
    pytest.param(_edit(lambda r: r["structure"]["block_indices"][0].__setitem__(0, _nbt().Int(99))),
                 "outside the palette", id="index-outside-palette"),
    pytest.param(_edit(lambda r: r["structure"]["palette"]["default"]["block_palette"][0].pop("version")),
                 "version is missing", id="no-version"),
]


@pytest.mark.parametrize("tamper, message", BROKEN)
def test_checker_rejects_broken_file(tamper, message):
    with pytest.raises(StructureError, match=message):
        read_mcstructure(tamper(mcstructure_bytes(maze_volume(2, 3))))


def test_untampered_rewrite_passes():
    data = mcstructure_bytes(maze_volume(2, 3))
    assert _edit(lambda root: None)(data) == data
