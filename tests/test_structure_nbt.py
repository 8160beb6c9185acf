"""Vanilla structure ``.nbt`` output, read back block for block by readers that share no code with the writer.

Readers: ``structure_checker`` (twoolie NBT, strict about every format rule) and litemapy's
``Region.from_structure_nbt`` (GPL, used only here as a test-time reader). Broken files built here
by hand check that the checker really rejects what Minecraft and litemapy trip over.
"""

from __future__ import annotations

import gzip
import io
import warnings
from functools import lru_cache

import litemapy
import nbtlib
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nbt import nbt
from nbtlib import Compound, Int, IntArray, List, String

import blockmaze as bm
from blockmaze.cli import main
from blockmaze.errors import BlockmazeWarning
from blockmaze.export import writer_for
from blockmaze.export.minecraft import structure
from blockmaze.export.minecraft.structure import write_indexed
from blockmaze.export.minecraft.versions import DATA_VERSIONS
from blockmaze.materials import Material
from structure_checker import StructureError, canonical_state, read_structure

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


def structure_bytes(volume: np.ndarray, **options) -> bytes:
    """``volume`` written by blockmaze as structure bytes."""
    out = io.BytesIO()
    bm.write(volume, out, format="structure", **options)
    return out.getvalue()


def litemapy_blocks(path, shape: tuple[int, int, int]) -> np.ndarray:
    """Every block litemapy reads from a structure file, as canonical states (y, z, x)."""
    region, _ = litemapy.Region.from_structure_nbt(nbtlib.File.load(str(path), gzipped=True))
    assert (region.width, region.height, region.length) == (shape[2], shape[0], shape[1])
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
def test_checker_reads_every_block_including_air(kind):
    """The strict checker accepts the file; every position is listed, air too, as the theme draws it."""
    volume = VOLUMES[kind]()
    structure = read_structure(structure_bytes(volume), data_version=DATA_VERSIONS["1.20.4"])
    height, length, width = volume.shape
    assert structure.size == (width, height, length)
    assert structure.listed == volume.size
    assert structure.entities == []
    assert_same_blocks(structure.blocks, expected_states(volume))


@pytest.mark.parametrize("kind", VOLUMES)
def test_litemapy_reads_volume(kind, tmp_path):
    """litemapy's structure reader sees every block as the theme draws the source volume."""
    volume = VOLUMES[kind]()
    path = tmp_path / "maze.nbt"
    bm.write(volume, path)
    assert_same_blocks(litemapy_blocks(path, volume.shape), expected_states(volume))


def test_axis_order_single_block():
    """One wall block at x=4, y=1, z=2 of a 7 wide, 3 high, 5 long box lands there and nowhere else."""
    volume = np.zeros((3, 5, 7), np.uint8)
    volume[1, 2, 4] = Material.WALL
    structure = read_structure(structure_bytes(volume))
    wall = THEME.minecraft[Material.WALL]
    assert structure.size == (7, 3, 5)
    assert structure.blocks[1, 2, 4] == wall
    assert (structure.blocks == wall).sum() == 1
    assert (structure.blocks == AIR).sum() == volume.size - 1


def test_keep_terrain_lists_no_air():
    """keep_terrain leaves air out of blocks and palette; every other block is still listed."""
    volume = maze_volume(4, 6, seed=5, roof=True)
    volume[1, 1, 1] = Material.PATH
    structure = read_structure(structure_bytes(volume, keep_terrain=True))
    expected = expected_states(volume)
    solid = volume != Material.AIR
    assert AIR not in structure.palette
    assert structure.listed == solid.sum()
    assert (structure.blocks[~solid] == None).all()  # noqa: E711 (element-wise)
    assert_same_blocks(structure.blocks[solid], expected[solid])


def test_keep_terrain_read_by_litemapy(tmp_path):
    """litemapy fills unlisted positions with air, so it reads a keep_terrain file as the full volume."""
    volume = random_volume((3, 4, 5), seed=21)
    path = tmp_path / "overlay.nbt"
    bm.write(volume, path, keep_terrain=True)
    assert_same_blocks(litemapy_blocks(path, volume.shape), expected_states(volume))


def test_keep_terrain_of_only_air_is_an_empty_typed_list():
    """A volume of air with keep_terrain lists nothing, in lists still typed Compound (§10)."""
    data = structure_bytes(np.zeros((2, 3, 4), np.uint8), keep_terrain=True)
    structure = read_structure(data)
    assert structure.listed == 0 and structure.palette == [] and structure.size == (4, 2, 3)
    root = nbt.NBTFile(buffer=io.BytesIO(gzip.decompress(data)))
    for name in ("blocks", "palette", "entities"):
        assert (root[name].id, len(root[name]), root[name].tagID) == (nbt.TAG_LIST, 0, nbt.TAG_COMPOUND)


def test_keep_terrain_without_air_changes_nothing():
    """With no air in the volume, keep_terrain writes the same file as the default."""
    volume = VOLUMES["no-air"]()
    assert structure_bytes(volume, keep_terrain=True) == structure_bytes(volume)


def test_palette_entries_are_name_and_string_properties():
    """A state with properties becomes {Name, Properties: {String...}}; a plain one has no Properties."""
    volume = np.array([[[Material.WALL, Material.DOOR]]], np.uint8)
    root = nbt.NBTFile(buffer=io.BytesIO(gzip.decompress(structure_bytes(volume))))
    entries = {entry["Name"].value: entry for entry in root["palette"].tags}
    assert set(entries) == {"minecraft:stone_bricks", "minecraft:spruce_door"}
    assert [tag.name for tag in entries["minecraft:stone_bricks"].tags] == ["Name"]
    properties = entries["minecraft:spruce_door"]["Properties"]
    assert properties.id == nbt.TAG_COMPOUND
    assert {tag.name: (tag.id, tag.value) for tag in properties.tags} == {
        "facing": (nbt.TAG_STRING, "north"), "half": (nbt.TAG_STRING, "lower"),
        "hinge": (nbt.TAG_STRING, "left"), "open": (nbt.TAG_STRING, "false"),
        "powered": (nbt.TAG_STRING, "false"),
    }


def state_string(entry: Compound) -> str:
    """An nbtlib palette entry as a canonical block-state string."""
    pairs = [f"{key}={value}" for key, value in entry.get("Properties", {}).items()]
    return canonical_state(f"{entry['Name']}[{','.join(pairs)}]" if pairs else str(entry["Name"]))


def test_hand_serialised_blocks_are_what_nbtlib_writes():
    """The numpy-built blocks list parses in nbtlib and re-serialises to the very same bytes,
    with each entry exactly {pos: List[Int] [x, y, z], state: Int}."""
    volume = random_volume((2, 3, 4), seed=3)
    raw = gzip.decompress(structure_bytes(volume))
    parsed = nbtlib.File.parse(io.BytesIO(raw))
    again = io.BytesIO()
    parsed.write(again)
    assert again.getvalue() == raw
    assert parsed.root_name == ""
    palette = [state_string(entry) for entry in parsed["palette"]]
    expected = [
        Compound({"pos": List[Int]([Int(x), Int(y), Int(z)]),
                  "state": Int(palette.index(canonical_state(THEME.minecraft[volume[y, z, x]])))})
        for y, z, x in np.ndindex(*volume.shape)
    ]
    assert parsed["blocks"] == List[Compound](expected)
    assert all(type(entry["pos"]) is List[Int] and type(entry["state"]) is Int for entry in parsed["blocks"])


@pytest.mark.parametrize("keep_terrain", [False, True])
def test_chunked_serialisation_is_seamless(keep_terrain, monkeypatch):
    """Entries are serialised a chunk at a time; chunks of 7 (splitting rows and layers) give the
    very bytes of one chunk."""
    volume = random_volume((3, 5, 6), seed=8)
    whole = structure_bytes(volume, keep_terrain=keep_terrain)
    monkeypatch.setattr(structure, "CHUNK_BLOCKS", 7)
    assert structure_bytes(volume, keep_terrain=keep_terrain) == whole


def test_many_states_and_wide_indices():
    """300 states with uint16 indices (0, 255, 256 and 299 included) are listed as given."""
    palette = [f"minecraft:test_block_{i}" for i in range(300)]
    rng = np.random.default_rng(300)
    indices = rng.integers(0, len(palette), size=(3, 7, 11)).astype(np.uint16)
    indices.flat[:4] = [0, 255, 256, 299]
    out = io.BytesIO()
    write_indexed(indices, palette, out)
    structure = read_structure(out.getvalue())
    assert structure.palette == palette
    assert_same_blocks(structure.blocks, np.array(palette, dtype=object)[indices])


# --- the 48x48x48 warning -----------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(1, 1, 49), (49, 1, 1), (1, 49, 1)], ids=["width", "height", "length"])
def test_side_over_48_warns(shape):
    """A side over 48 is written but warns that structure blocks stop at 48 and /place template is needed."""
    with pytest.warns(BlockmazeWarning, match=r"48x48x48.*/place template \(Minecraft 1\.19\+\)"):
        data = structure_bytes(np.ones(shape, np.uint8))
    height, length, width = shape
    assert read_structure(data).size == (width, height, length)


@pytest.mark.parametrize("mc_version, place_template", [
    ("1.13", False), ("1.16.5", False), ("1.18.2", False), ("1.19", True), ("1.20.4", True)])
def test_over_48_hint_names_place_template_only_from_1_19(mc_version, place_template):
    """/place template exists from Java 1.19 (docs/minecraft.md §3.1,
    PlaceCommand.placeTemplate): the hint offers it from 1.19 and, before, says the release lacks
    it and to load pieces with structure blocks."""
    with pytest.warns(BlockmazeWarning) as caught:
        structure_bytes(np.ones((1, 1, 49), np.uint8), mc_version=mc_version)
    message = str(caught[0].message)
    if place_template:
        assert "place it with /place template (Minecraft 1.19+)" in message
    else:
        assert f"Minecraft {mc_version} cannot load it whole (it has no /place template, added in 1.19)" in message
        assert "pieces of at most 48 with structure blocks" in message


def test_48_cube_does_not_warn():
    """Exactly 48x48x48 loads in a structure block: no warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        structure_bytes(np.zeros((48, 48, 48), np.uint8), keep_terrain=True)


def test_cli_prints_one_warning_line(tmp_path, capsys):
    """The command line turns the warning into one 'Warning:' line, and only above 48."""
    for cells, width, warned in ((23, 47, False), (24, 49, True)):
        target = tmp_path / f"{cells}.nbt"
        assert main(["generate", f"2x{cells}", "--seed", "1", "-o", str(target)]) == 0
        err = capsys.readouterr().err
        lines = [line for line in err.splitlines() if line.startswith("Warning:")]
        assert len(lines) == int(warned), err
        if warned:
            assert f"{width}x" in lines[0] and "/place template" in lines[0]
        assert read_structure(target).size[0] == width


# --- releases, determinism, registry --------------------------------------------------------------


@pytest.mark.parametrize("mc_version, expected", [
    ("1.13", 1519), ("1.19", 3105), ("1.20.4", 3700), ("1.20.5", 3837), ("1.21.11", 4671), ("26.2", 4903),
])
def test_data_version_matches_release(mc_version, expected):
    """DataVersion is the chosen release's number (§8), in the file as an Int."""
    assert DATA_VERSIONS[mc_version] == expected
    assert read_structure(structure_bytes(maze_volume(2, 2), mc_version=mc_version)).data_version == expected


def test_unknown_mc_version_raises_and_leaves_no_file(tmp_path):
    with pytest.raises(bm.BlockmazeError, match="unknown Minecraft version"):
        bm.write(maze_volume(2, 2), tmp_path / "maze.nbt", mc_version="1.12.2")
    assert list(tmp_path.iterdir()) == []


def test_same_seed_gives_identical_bytes(tmp_path):
    """Same input and seed, byte-identical files; another seed draws other wall variants."""
    volume = maze_volume(6, 7, seed=42)
    first, second = structure_bytes(volume, seed=42), structure_bytes(volume, seed=42)
    assert first == second
    assert structure_bytes(volume, seed=43) != first


def test_path_by_suffix_and_stream_by_format_agree(tmp_path):
    volume = maze_volume()
    bm.write(volume, tmp_path / "maze.nbt", seed=1)
    assert (tmp_path / "maze.nbt").read_bytes() == structure_bytes(volume, seed=1)


def test_registered_by_suffix_with_its_options():
    writer = writer_for("maze.nbt")
    assert writer.name == "structure"
    assert writer.options == ("mc_version", "seed", "keep_terrain")


def test_check_size_refuses_before_work():
    with pytest.raises(bm.BlockmazeError, match="at most 2147483647"):
        writer_for(format="structure").check_size((4, 30000, 30000))


# --- properties -------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    shape=st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)),
    seed=st.integers(0, 2**32 - 1),
    keep_terrain=st.booleans(),
)
def test_random_volumes_round_trip(shape, seed, keep_terrain):
    """Any small random volume reads back equal to its source (air unlisted with keep_terrain)."""
    volume = random_volume(shape, seed)
    structure = read_structure(structure_bytes(volume, keep_terrain=keep_terrain))
    expected = expected_states(volume)
    if keep_terrain:
        expected[volume == Material.AIR] = None
    assert_same_blocks(structure.blocks, expected)


# --- the checker rejects broken files -----------------------------------------------------------


@lru_cache
def good_file() -> bytes:
    return structure_bytes(maze_volume(2, 3))


def nbt_edit(edit):
    """A bytes -> bytes tamper: decompress, ``edit(root)`` in place, gzip again (mtime 0)."""
    def tamper(data: bytes) -> bytes:
        root = nbtlib.File.parse(io.BytesIO(gzip.decompress(data)))
        edit(root)
        raw = io.BytesIO()
        root.write(raw)
        return gzip.compress(raw.getvalue(), mtime=0)
    return tamper


def set_block(i: int, **fields):
    return nbt_edit(lambda r: r["blocks"][i].update(fields))


BROKEN = [
    pytest.param(lambda d: gzip.decompress(d), "not gzipped", id="not-gzipped"),
    pytest.param(lambda d: d[:4] + (1700000000).to_bytes(4, "little") + d[8:], "mtime", id="gzip-mtime-set"),
    pytest.param(nbt_edit(lambda r: r.pop("DataVersion")), "DataVersion is missing", id="no-dataversion"),
    pytest.param(nbt_edit(lambda r: r.update(DataVersion=Int(500))), "predates", id="dataversion-500"),
    pytest.param(nbt_edit(lambda r: r.update(size=IntArray([int(v) for v in r["size"]]))),
                 "size must be a TAG_List, found TAG_Int_Array", id="size-as-int-array"),
    pytest.param(nbt_edit(lambda r: r.update(size=List[Int](r["size"][:2]))), "size must hold 3 Ints",
                 id="size-two-ints"),
    pytest.param(set_block(0, pos=IntArray([0, 0, 0])), r"blocks\[0\].pos must be a TAG_List", id="pos-as-int-array"),
    pytest.param(set_block(0, pos=List[Int]([Int(99), Int(0), Int(0)])), "not a position inside",
                 id="pos-outside-size"),
    pytest.param(set_block(1, pos=List[Int]([Int(0), Int(0), Int(0)])), "listed twice", id="pos-twice"),
    pytest.param(nbt_edit(lambda r: r["blocks"][0].update(state=Int(len(r["palette"])))), "outside the palette",
                 id="state-outside-palette"),
    pytest.param(set_block(0, state=nbtlib.Short(0)), r"state must be a TAG_Int", id="state-as-short"),
    pytest.param(nbt_edit(lambda r: r.pop("entities")), "entities is missing", id="no-entities"),
    pytest.param(nbt_edit(lambda r: r.update(entities=List([]))),
                 "entities must be a list of TAG_Compound, its element type is TAG_End", id="entities-end-typed"),
    pytest.param(nbt_edit(lambda r: r["palette"][0].update(Properties=Compound({"axis": Int(1)}))),
                 r"Properties.axis must be a TAG_String", id="property-not-a-string"),
    pytest.param(nbt_edit(lambda r: r["palette"][0].update(Properties=Compound())), "Properties is empty",
                 id="properties-empty"),
    pytest.param(nbt_edit(lambda r: r["palette"][0].update(Name=String("Stone Bricks"))), "not a block id",
                 id="name-not-an-id"),
    pytest.param(nbt_edit(lambda r: r["palette"].append(r["palette"][0])), "twice", id="palette-duplicate"),
]


@pytest.mark.parametrize("tamper, message", BROKEN)
def test_checker_rejects_broken_file(tamper, message):
    with pytest.raises(StructureError, match=message):
        read_structure(tamper(good_file()))


def test_untampered_round_trip_through_nbtlib_passes():
    """Re-gzipping a good file without an edit keeps it valid (the control case)."""
    read_structure(nbt_edit(lambda root: None)(good_file()))
