"""Litematica ``.litematic`` output, read back block for block by readers that share no code with the writer.

Readers: ``litematic_checker`` (twoolie NBT and its own entry-by-entry unpacking of spanning bit
arrays, strict about every format rule, air first included) and litemapy (GPL, used only here as a
test-time reader; it does not check that air comes first, §4). Broken files built here by hand
check that the checker really rejects what breaks Litematica.
"""

from __future__ import annotations

import gzip
import io
from functools import lru_cache

import litemapy
import nbtlib
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nbt import nbt
from nbtlib import Compound, Int, IntArray, List, LongArray, String

import blockmaze as bm
from blockmaze.export.minecraft.placement import player_spot
from blockmaze.cli import main
from blockmaze.export import writer_for
from blockmaze.export.minecraft.litematic import pack_spanning, write_indexed
from blockmaze.export.minecraft.versions import RELEASES
from blockmaze.materials import Material
from litematic_checker import LitematicError, bits_needed, read_litematic, unpack_spanning
from schem_checker import read_schem
from structure_checker import canonical_state

THEME = bm.load_theme()
AIR = "minecraft:air"


# --- building volumes and reading them back -------------------------------------------------


# materials whose block state does not depend on the neighbours (a DOOR's facing and half do;
# tests of oriented states are in test_placement.py); spawn points, which carry block entities,
# are tested in test_spawn_points.py
FREE_STANDING = [int(m) for m in bm.Material if m not in (bm.Material.DOOR, bm.Material.STAIRS,
                                                          bm.Material.MONSTER, bm.Material.ITEM,
                                                          bm.Material.TREASURE)]


def maze_volume(rows: int = 4, cols: int = 5, seed: int = 3, roof: bool = False) -> np.ndarray:
    """A maze extruded 3 blocks high on a floor, (y, z, x)."""
    plan = bm.to_blocks(bm.generate((rows, cols), rng=seed), wall=1, passage=1)
    return bm.extrude(plan, height=3, floor=True, roof=roof)


def random_volume(shape: tuple[int, int, int], seed: int) -> np.ndarray:
    """Random materials (every one the theme draws) in a (y, z, x) volume: no symmetry to hide errors."""
    rng = np.random.default_rng(seed)
    return rng.choice(FREE_STANDING, size=shape).astype(np.uint8)


def expected_states(volume: np.ndarray, theme: bm.Theme = THEME) -> np.ndarray:
    """The canonical block states the theme draws ``volume`` with, (y, z, x)."""
    table = np.full(256, None, dtype=object)
    for material, state in theme.minecraft.items():
        table[int(material)] = canonical_state(state)
    return table[volume]


def litematic_bytes(volume: np.ndarray, **options) -> bytes:
    out = io.BytesIO()
    bm.write(volume, out, format="litematic", **options)
    return out.getvalue()


def indexed_bytes(indices: np.ndarray, palette: list[str], **options) -> bytes:
    out = io.BytesIO()
    write_indexed(indices, palette, out, **options)
    return out.getvalue()


def the_region(data: bytes):
    """The one region of a checked file (named 'maze')."""
    found = read_litematic(data)
    assert list(found.regions) == ["maze"]
    return found.regions["maze"]


def litemapy_blocks(data: bytes, tmp_path) -> np.ndarray:
    """Every block litemapy reads from a .litematic, as canonical states (y, z, x)."""
    path = tmp_path / "read.litematic"
    path.write_bytes(data)
    schematic = litemapy.Schematic.load(str(path))
    region = schematic.regions["maze"]
    shape = (region.height, region.length, region.width)
    blocks = np.empty(shape, dtype=object)
    for y, z, x in np.ndindex(*shape):
        blocks[y, z, x] = region[x, y, z].to_block_state_identifier()
    return blocks


def assert_same_blocks(found: np.ndarray, expected: np.ndarray) -> None:
    """Equal (y, z, x) block-state arrays, or a message naming the first differing block."""
    assert found.shape == expected.shape, f"shape (y, z, x) {found.shape} != {expected.shape}"
    differ = np.argwhere(found != expected)
    if differ.size:
        y, z, x = differ[0]
        pytest.fail(
            f"{len(differ)} blocks differ; first at x={x}, y={y}, z={z}: "
            f"{found[y, z, x]!r} != {expected[y, z, x]!r}"
        )


VOLUMES = {
    "maze": lambda: maze_volume(),
    "maze-roofed": lambda: maze_volume(3, 6, seed=9, roof=True),
    "asymmetric-random": lambda: random_volume((3, 5, 7), seed=11),  # H, L, W all different
    "fortran-order": lambda: np.asfortranarray(random_volume((4, 3, 6), seed=12)),
    "strided-view": lambda: random_volume((4, 6, 9), seed=13)[::-1, :, ::2],  # a view, not a copy
    "no-air": lambda: np.full((2, 3, 4), Material.WALL, np.uint8),
}


# --- round trips ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", VOLUMES)
def test_checker_reads_volume(kind):
    """The strict checker accepts the file and reads back the source volume block for block."""
    volume = VOLUMES[kind]()
    region = the_region(litematic_bytes(volume))
    height, length, width = volume.shape
    assert region.size == (width, height, length)
    assert region.position == player_spot(volume).offset  # relative to the player's position
    assert region.palette[0] == AIR
    assert_same_blocks(region.blocks, expected_states(volume))


@pytest.mark.parametrize("kind", VOLUMES)
def test_litemapy_reads_volume(kind, tmp_path):
    """litemapy reads every block as the theme draws the source volume."""
    volume = VOLUMES[kind]()
    assert_same_blocks(litemapy_blocks(litematic_bytes(volume), tmp_path), expected_states(volume))


def test_axis_order_single_block(tmp_path):
    """One wall block at x=4, y=1, z=2 of a 7 wide, 3 high, 5 long box lands there and nowhere else."""
    volume = np.zeros((3, 5, 7), np.uint8)
    volume[1, 2, 4] = Material.WALL
    data = litematic_bytes(volume)
    region = the_region(data)
    wall = THEME.minecraft[Material.WALL]
    assert region.size == (7, 3, 5)
    assert region.blocks[1, 2, 4] == wall and (region.blocks == wall).sum() == 1
    path = tmp_path / "one.litematic"
    path.write_bytes(data)
    schematic = litemapy.Schematic.load(str(path))
    assert repr(schematic.regions["maze"][4, 1, 2]) == wall
    assert repr(schematic.regions["maze"][2, 1, 4]) == AIR


def test_air_is_entry_0_even_without_air():
    """A volume without air still has minecraft:air at palette index 0; its blocks index from 1."""
    region = the_region(litematic_bytes(VOLUMES["no-air"]()))
    assert region.palette == [AIR, THEME.minecraft[Material.WALL]]
    assert (region.indices == 1).all()


def test_air_is_moved_to_entry_0(tmp_path):
    """A palette with air in the middle is reordered so air comes first; every block stays put."""
    palette = ["minecraft:stone", AIR, "minecraft:dirt"]
    indices = np.array([[[0, 1, 2, 1, 0]], [[2, 2, 0, 1, 1]]], dtype=np.uint8)
    data = indexed_bytes(indices, palette)
    region = the_region(data)
    assert region.palette == [AIR, "minecraft:stone", "minecraft:dirt"]
    expected = np.array(palette, dtype=object)[indices]
    assert_same_blocks(region.blocks, expected)
    assert_same_blocks(litemapy_blocks(data, tmp_path), expected)


# Palette sizes counted with air: 4 and 8 sit on a power-of-two boundary (2 and 3 bits), 5 and 9
# just past one; 3 bits and 5 bits do not divide 64, so entries span two longs.
@pytest.mark.parametrize("palette_size, bits", [
    (2, 2), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4), (16, 4), (17, 5), (33, 6), (64, 6), (65, 7), (257, 9),
])
def test_palette_size_sets_bits_and_long_count(palette_size, bits, tmp_path):
    """bits = max(2, ceil(log2 n)), exactly ceil(V*bits/64) longs, every entry (first, last and the
    palette's last index included) read back by the checker and by litemapy."""
    palette = [AIR] + [f"minecraft:test_block_{i}" for i in range(palette_size - 1)]
    rng = np.random.default_rng(palette_size)
    indices = rng.integers(0, palette_size, size=(3, 5, 7)).astype(np.uint16)
    indices.flat[[0, 1, -1]] = [palette_size - 1, 0, palette_size - 1]
    data = indexed_bytes(indices, palette)
    region = the_region(data)
    assert bits_needed(palette_size) == region.bits == bits
    assert len(region.longs) == -(-indices.size * bits // 64)
    np.testing.assert_array_equal(region.indices, indices)
    assert_same_blocks(litemapy_blocks(data, tmp_path), np.array(palette, dtype=object)[indices])


def test_pack_spanning_matches_the_checker_on_a_large_volume():
    """The numpy packer and the checker's entry-by-entry reader agree over many longs, 3 and 5 bits."""
    rng = np.random.default_rng(7)
    for bits in (3, 5):
        values = rng.integers(0, 2**bits, size=20011)
        longs = pack_spanning(values, bits)
        assert longs.dtype.itemsize == 8 and len(longs) == -(-values.size * bits // 64)
        assert unpack_spanning(longs.tolist(), bits, values.size) == values.tolist()


def test_a_larger_maze_round_trips():
    """A 40x50-cell maze (101 blocks wide), with a roof and seeded variants, reads back exactly."""
    volume = maze_volume(40, 50, seed=8, roof=True)
    region = the_region(litematic_bytes(volume))
    assert_same_blocks(region.blocks, expected_states(volume))


# --- header, metadata, releases -------------------------------------------------------------------


@pytest.mark.parametrize("mc_version, data_version, version, sub_version", [
    ("1.13", 1519, 5, None), ("1.16.5", 2586, 5, None), ("1.17.1", 2730, 5, None),
    ("1.18", 2860, 6, 1), ("1.20.3", 3698, 6, 1), ("1.20.4", 3700, 6, 1), ("1.20.5", 3837, 7, 1),
    ("1.21", 3953, 7, 1), ("1.21.11", 4671, 7, 1), ("26.2", 4903, 7, 1),
])
def test_version_and_data_version_follow_release(mc_version, data_version, version, sub_version):
    """Each release gets the schematic Version its Litematica line writes; MinecraftDataVersion
    from §8. Source: LitematicaSchematic.java, SCHEMATIC_VERSION and SCHEMATIC_VERSION_SUB, in
    maruohon/litematica branches pre-rewrite/rift/1.13.2 (1b061f3a), fabric/1.14.x (62a047c4),
    fabric/1.16.x (b96be2e6): 5, reading only 1..5, no SubVersion; fabric/1.17.x (01446822): 5,
    reading up to 6; fabric/1.18.x (a7f1f6ed), 1.19.x (cc62a603), 1.20.x (04f547cc): 6 with
    SubVersion 1; sakura-ryoko/litematica fabric/1.20.6 (04a40dde), 1.21 (4e73001a), 1.21.3
    (c97c1e38): 7 with SubVersion 1."""
    assert RELEASES[mc_version].data_version == data_version
    found = read_litematic(litematic_bytes(maze_volume(2, 2), mc_version=mc_version), data_version=data_version)
    assert (found.version, found.sub_version, found.data_version) == (version, sub_version, data_version)


def test_metadata():
    """Metadata names blockmaze, counts volume and non-air blocks, and carries constant times (0)."""
    volume = maze_volume(3, 4, seed=2)
    found = read_litematic(litematic_bytes(volume))
    height, length, width = volume.shape
    meta = found.metadata
    assert meta["Author"] == "blockmaze" and meta["Name"] and meta["Description"].isascii()
    assert meta["RegionCount"] == 1
    assert meta["TotalVolume"] == volume.size
    assert meta["TotalBlocks"] == int((volume != Material.AIR).sum())
    assert meta["EnclosingSize"] == {"x": width, "y": height, "z": length}
    assert meta["TimeCreated"] == meta["TimeModified"] == 0


def test_region_lists_are_present_and_typed():
    """TileEntities, Entities, PendingBlockTicks and PendingFluidTicks exist, empty, typed Compound (§4, §10)."""
    root = nbt.NBTFile(buffer=io.BytesIO(gzip.decompress(litematic_bytes(maze_volume(2, 2)))))
    region = root["Regions"]["maze"]
    for name in ("TileEntities", "Entities", "PendingBlockTicks", "PendingFluidTicks"):
        assert (region[name].id, len(region[name]), region[name].tagID) == (nbt.TAG_LIST, 0, nbt.TAG_COMPOUND)
    assert region["BlockStates"].id == nbt.TAG_LONG_ARRAY
    assert root.name == ""


def test_unknown_mc_version_raises_and_leaves_no_file(tmp_path):
    with pytest.raises(bm.BlockmazeError, match="unknown Minecraft version"):
        bm.write(maze_volume(2, 2), tmp_path / "maze.litematic", mc_version="1.20.99")
    assert list(tmp_path.iterdir()) == []


def test_same_seed_gives_identical_bytes():
    volume = maze_volume(6, 7, seed=42)
    first = litematic_bytes(volume, seed=42)
    assert litematic_bytes(volume, seed=42) == first
    assert litematic_bytes(volume, seed=43) != first


def test_seeded_variants_match_the_schem_writer():
    """With a seed, the litematic holds the very blocks the .schem writer draws from that seed."""
    volume = maze_volume(5, 6, seed=4, roof=True)
    out = io.BytesIO()
    bm.write(volume, out, format="schem", seed=99)
    schem_blocks = np.vectorize(canonical_state, otypes=[object])(read_schem(out.getvalue()).blocks)
    region = the_region(litematic_bytes(volume, seed=99))
    assert len(set(region.palette)) > len(set(expected_states(volume).ravel()))  # variants drawn
    assert_same_blocks(region.blocks, schem_blocks)


def test_path_by_suffix_and_stream_by_format_agree(tmp_path):
    volume = maze_volume()
    bm.write(volume, tmp_path / "maze.litematic", seed=1)
    assert (tmp_path / "maze.litematic").read_bytes() == litematic_bytes(volume, seed=1)


def test_registered_by_suffix_with_its_options():
    writer = writer_for("maze.litematic")
    assert writer.name == "litematic"
    assert writer.options == ("mc_version", "seed")


def test_check_size_refuses_before_work():
    with pytest.raises(bm.BlockmazeError, match="at most 2147483647"):
        writer_for(format="litematic").check_size((4, 30000, 30000))


def test_cli_writes_a_readable_litematic(tmp_path, capsys):
    target = tmp_path / "m.litematic"
    assert main(["generate", "3x4", "--seed", "5", "--mc-version", "1.20.5", "-o", str(target)]) == 0
    found = read_litematic(target.read_bytes())
    assert (found.version, found.data_version) == (7, 3837)
    assert found.regions["maze"].size == (9, 4, 7)


# --- properties -------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    shape=st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_volumes_round_trip(shape, seed):
    volume = random_volume(shape, seed)
    assert_same_blocks(the_region(litematic_bytes(volume)).blocks, expected_states(volume))


@settings(max_examples=40, deadline=None)
@given(
    palette_size=st.integers(1, 300),
    air_at=st.integers(-1, 299),
    shape=st.tuples(st.integers(1, 5), st.integers(1, 5), st.integers(1, 9)),
    seed=st.integers(0, 2**32 - 1),
)
def test_any_palette_round_trips(palette_size, air_at, shape, seed):
    """Any palette size, air anywhere in it or absent, packs and reads back with air first."""
    palette = [f"minecraft:test_block_{i}" for i in range(palette_size)]
    if 0 <= air_at < palette_size:
        palette[air_at] = AIR
    indices = np.random.default_rng(seed).integers(0, palette_size, size=shape)
    region = the_region(indexed_bytes(indices, palette))
    assert region.palette[0] == AIR and sorted(region.palette) == sorted(set(palette) | {AIR})
    assert region.bits == max(2, int(np.ceil(np.log2(len(region.palette)))))
    assert_same_blocks(region.blocks, np.array(palette, dtype=object)[indices])


# --- the checker rejects broken files -----------------------------------------------------------


@lru_cache
def good_file(mc_version: str = "1.20.4") -> bytes:
    """A valid small maze file to break: 5 palette entries, so 3 bits and spanning entries."""
    volume = maze_volume(2, 3)
    volume[1, 1, 1], volume[1, 1, 3] = Material.START, Material.GOAL
    return litematic_bytes(volume, mc_version=mc_version)


def nbt_edit(edit):
    """A bytes -> bytes tamper: decompress, ``edit(root, region)`` in place, gzip again (mtime 0)."""
    def tamper(data: bytes) -> bytes:
        root = nbtlib.File.parse(io.BytesIO(gzip.decompress(data)))
        edit(root, root["Regions"]["maze"])
        raw = io.BytesIO()
        root.write(raw)
        return gzip.compress(raw.getvalue(), mtime=0)
    return tamper


def swap_first_palette_entries(root, region) -> None:
    """Put entry 1 first and renumber the blocks to match: valid except that air is not first."""
    palette = region["BlockStatePalette"]
    palette[0], palette[1] = palette[1], palette[0]
    bits = bits_needed(len(palette))
    count = int(root["Metadata"]["TotalVolume"])
    values = np.array(unpack_spanning([int(v) for v in region["BlockStates"]], bits, count))
    values = np.where(values == 0, 1, np.where(values == 1, 0, values))
    region["BlockStates"] = LongArray(pack_spanning(values, bits))


def set_longs(change):
    def edit(root, region):
        region["BlockStates"] = LongArray(change([int(v) for v in region["BlockStates"]]))
    return nbt_edit(edit)


BROKEN = [
    pytest.param(lambda d: gzip.decompress(d), "not gzipped", id="not-gzipped"),
    pytest.param(lambda d: d[:4] + (1700000000).to_bytes(4, "little") + d[8:], "mtime", id="gzip-mtime-set"),
    pytest.param(nbt_edit(swap_first_palette_entries), r"BlockStatePalette\[0\] is minecraft:stone_bricks; it must be",
                 id="air-not-first"),
    pytest.param(nbt_edit(lambda r, g: g["BlockStatePalette"].pop(0)), r"BlockStatePalette\[0\] is", id="air-dropped"),
    pytest.param(set_longs(lambda longs: longs[:-1]), "need exactly", id="one-long-short"),
    pytest.param(set_longs(lambda longs: longs + [0]), "need exactly", id="one-long-too-many"),
    pytest.param(nbt_edit(lambda r, g: g["BlockStatePalette"].extend(
        [Compound({"Name": String(f"minecraft:extra_{i}")}) for i in range(4)])),
        "need exactly", id="palette-grown-past-8-without-repacking"),
    pytest.param(set_longs(lambda longs: [-1] + longs[1:]), "outside the palette", id="index-outside-palette"),
    pytest.param(set_longs(lambda longs: longs[:-1] + [longs[-1] | (1 << 62)]), "bits set after its last entry",
                 id="padding-bits-set"),
    pytest.param(nbt_edit(lambda r, g: r.pop("MinecraftDataVersion")), "MinecraftDataVersion is missing",
                 id="no-dataversion"),
    pytest.param(nbt_edit(lambda r, g: r.update(Version=Int(7))), "Version is 7 but MinecraftDataVersion 3700",
                 id="version-7-for-1.20.4"),
    pytest.param(nbt_edit(lambda r, g: r.pop("Version")), "Version is missing", id="no-version"),
    pytest.param(nbt_edit(lambda r, g: setattr(r, "root_name", "maze")), "root tag is named 'maze'", id="root-named"),
    pytest.param(nbt_edit(lambda r, g: g.update(Size=IntArray([1, 2, 3]))), "Size must be a TAG_Compound",
                 id="size-as-int-array"),
    pytest.param(nbt_edit(lambda r, g: g.update(BlockStates=IntArray([0]))), "BlockStates must be a TAG_Long_Array",
                 id="blockstates-as-int-array"),
    pytest.param(nbt_edit(lambda r, g: g.pop("PendingFluidTicks")), "PendingFluidTicks is missing",
                 id="no-fluid-ticks"),
    pytest.param(nbt_edit(lambda r, g: g.update(Entities=List([]))),
                 "Entities must be a list of TAG_Compound, its element type is TAG_End", id="entities-end-typed"),
    pytest.param(nbt_edit(lambda r, g: r["Metadata"].update(TotalBlocks=Int(1))), "TotalBlocks is 1",
                 id="total-blocks-wrong"),
    pytest.param(nbt_edit(lambda r, g: r["Metadata"].update(TimeCreated=Int(0))), "TimeCreated must be a TAG_Long",
                 id="time-as-int"),
    pytest.param(nbt_edit(lambda r, g: r["Metadata"]["EnclosingSize"].update(x=Int(99))), "EnclosingSize",
                 id="enclosing-size-wrong"),
    pytest.param(nbt_edit(lambda r, g: r["Metadata"].update(RegionCount=Int(2))), "RegionCount is 2",
                 id="region-count-wrong"),
]


@pytest.mark.parametrize("tamper, message", BROKEN)
def test_checker_rejects_broken_file(tamper, message):
    with pytest.raises(LitematicError, match=message):
        read_litematic(tamper(good_file()))


def test_version_6_for_1_21_is_rejected():
    with pytest.raises(LitematicError, match="Version is 6 but MinecraftDataVersion 3953 calls for 7"):
        read_litematic(nbt_edit(lambda r, g: r.update(Version=Int(6)))(good_file("1.21")))


def test_broken_file_base_has_spanning_entries():
    """The file the tampers start from packs 3-bit entries, so some span two longs."""
    region = the_region(good_file())
    assert region.bits == 3 and region.indices.size * 3 > 64


def test_untampered_round_trip_through_nbtlib_passes():
    read_litematic(nbt_edit(lambda root, region: None)(good_file()))


def test_litemapy_does_not_catch_air_not_first(tmp_path):
    """Why the checker must: litemapy loads a stone-first palette without complaint (§4)."""
    data = nbt_edit(swap_first_palette_entries)(good_file())
    path = tmp_path / "stone-first.litematic"
    path.write_bytes(data)
    litemapy.Schematic.load(str(path))
