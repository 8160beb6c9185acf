"""Sponge .schem output, read back block for block by readers that share no code with the writer.

Readers: ``schem_checker`` (twoolie NBT + its own varint decoder, strict about every format rule)
and ``mcschematic`` (a lenient third-party reader of v2 only). Broken files built here by hand
check that the checker really rejects what WorldEdit and friends reject.
"""

from __future__ import annotations

import gzip
import io
from functools import lru_cache

import mcschematic
import nbtlib
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nbt import nbt
from nbtlib import Int, IntArray, List

import blockmaze as bm
from blockmaze.export.minecraft.placement import player_spot
from blockmaze.export.minecraft.sponge import write_indexed, write_schem_bands
from blockmaze.export.minecraft.versions import DATA_VERSIONS
from schem_checker import SchemError, parse_nbt, read_schem

THEME = bm.load_theme()
SCHEM_VERSIONS = [2, 3]


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
    """The block states the theme draws ``volume`` with, as an object array of the same shape."""
    table = np.full(256, None, dtype=object)
    for material, state in theme.minecraft.items():
        table[int(material)] = state
    return table[volume]


def schem_bytes(volume: np.ndarray, schem_version: int, mc_version: str = "1.20.4") -> bytes:
    """``volume`` written by blockmaze as .schem bytes."""
    out = io.BytesIO()
    bm.write(volume, out, format="schem", mc_version=mc_version, schem_version=schem_version)
    return out.getvalue()


def write_schem_file(volume: np.ndarray, tmp_path, schem_version: int, **options):
    """``volume`` written by blockmaze to a .schem path (format found by suffix)."""
    path = tmp_path / f"v{schem_version}.schem"
    bm.write(volume, path, schem_version=schem_version, **options)
    return path


def mcschematic_blocks(path, shape: tuple[int, int, int], we_offset=(0, 0, 0)) -> np.ndarray:
    """Every block mcschematic reads from a v2 file, as (y, z, x); it shifts positions by WEOffset."""
    schem = mcschematic.MCSchematic(str(path))
    ox, oy, oz = we_offset
    blocks = np.empty(shape, dtype=object)
    for y, z, x in np.ndindex(*shape):
        blocks[y, z, x] = schem.getBlockDataAt((x + ox, y + oy, z + oz))
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
}


# --- round trips ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", VOLUMES)
def test_v2_read_by_mcschematic_matches_volume(kind, tmp_path):
    """mcschematic reads every block of a v2 file as the theme draws the source volume."""
    volume = VOLUMES[kind]()
    path = write_schem_file(volume, tmp_path, 2)
    offset = read_schem(path).we_offset
    assert_same_blocks(mcschematic_blocks(path, volume.shape, offset), expected_states(volume))


@pytest.mark.parametrize("schem_version", SCHEM_VERSIONS)
@pytest.mark.parametrize("kind", VOLUMES)
def test_checker_reads_volume(kind, schem_version, tmp_path):
    """The strict checker accepts the file and reads back the source volume block for block."""
    volume = VOLUMES[kind]()
    schem = read_schem(write_schem_file(volume, tmp_path, schem_version), version=schem_version)
    height, length, width = volume.shape
    assert (schem.width, schem.height, schem.length) == (width, height, length)
    # WorldEdit pastes the min corner at player + offset: v3's Offset, v2's WEOffset (Offset = 0)
    paste = player_spot(volume).offset
    assert schem.offset == (paste if schem_version == 3 else (0, 0, 0))
    assert schem.we_offset == (paste if schem_version == 2 else (0, 0, 0))
    assert_same_blocks(schem.blocks, expected_states(volume))


@pytest.mark.parametrize("schem_version", SCHEM_VERSIONS)
def test_axis_order_single_block(schem_version, tmp_path):
    """One wall block at x=4, y=1, z=2 of a 7 wide, 3 high, 5 long box lands there and nowhere else."""
    volume = np.zeros((3, 5, 7), np.uint8)
    volume[1, 2, 4] = bm.Material.WALL
    path = write_schem_file(volume, tmp_path, schem_version)
    schem = read_schem(path)
    wall, air = THEME.minecraft[bm.Material.WALL], THEME.minecraft[bm.Material.AIR]
    assert (schem.width, schem.height, schem.length) == (7, 3, 5)
    assert schem.block_at(x=4, y=1, z=2) == wall
    assert (schem.blocks == wall).sum() == 1
    if schem_version == 2:
        reader = mcschematic.MCSchematic(str(path))  # it shifts positions by WEOffset
        ox, oy, oz = schem.we_offset
        assert reader.getBlockDataAt((4 + ox, 1 + oy, 2 + oz)) == wall
        assert reader.getBlockDataAt((2 + ox, 1 + oy, 4 + oz)) == air


@pytest.mark.parametrize("schem_version", SCHEM_VERSIONS)
def test_materials_sharing_a_state_share_one_palette_entry(schem_version):
    """A theme drawing wall, floor and roof alike yields one palette entry for them, still exact."""
    stone = "minecraft:stone"
    theme = bm.Theme("mono", "", {
        bm.Material.AIR: "minecraft:air",
        bm.Material.WALL: stone, bm.Material.FLOOR: stone, bm.Material.ROOF: stone,
    })
    volume = maze_volume(3, 3, roof=True)
    out = io.BytesIO()
    bm.write(volume, out, format="schem", theme=theme, schem_version=schem_version)
    schem = read_schem(out.getvalue())
    assert schem.palette == {"minecraft:air": 0, stone: 1}
    assert_same_blocks(schem.blocks, expected_states(volume, theme))


@pytest.mark.parametrize("dtype", [np.int64, np.uint16])
@pytest.mark.parametrize("schem_version", SCHEM_VERSIONS)
def test_palette_over_128_entries_multibyte_varints(schem_version, dtype, tmp_path):
    """400 states and random indices (0, 127, 128 and 399 included) survive multi-byte varints."""
    palette = [f"minecraft:test_block_{i}" for i in range(400)]
    rng = np.random.default_rng(400)
    indices = rng.integers(0, len(palette), size=(3, 7, 11)).astype(dtype)
    indices.flat[:4] = [0, 127, 128, 399]  # the one/two-byte varint boundary and both ends
    path = tmp_path / "big-palette.schem"
    with open(path, "wb") as file:
        write_indexed(indices, palette, file, schem_version=schem_version)
    expected = np.array(palette, dtype=object)[indices]
    schem = read_schem(path, version=schem_version)
    assert schem.states == palette
    np.testing.assert_array_equal(schem.indices, indices)
    assert_same_blocks(schem.blocks, expected)
    if schem_version == 2:
        assert_same_blocks(mcschematic_blocks(path, indices.shape, schem.we_offset), expected)


# Expected numbers: the reference's table (§8), 1.13.2 = 1631 (§1.4), 1.13 = 1519 (Minecraft wiki).
@pytest.mark.parametrize("schem_version", SCHEM_VERSIONS)
@pytest.mark.parametrize("mc_version, expected", [
    ("1.13", 1519), ("1.13.2", 1631), ("1.20.4", 3700), ("1.21.11", 4671), ("26.2", 4903),
])
def test_data_version_matches_release(mc_version, expected, schem_version):
    """DataVersion is the chosen release's number, both in blockmaze's table and in the file."""
    assert DATA_VERSIONS[mc_version] == expected
    schem = read_schem(schem_bytes(maze_volume(2, 2), schem_version, mc_version))
    assert schem.data_version == expected


@pytest.mark.parametrize("mc_version", ["1.12.2", "1.20.99", "latest", ""])
def test_unknown_mc_version_raises_and_leaves_no_file(mc_version, tmp_path):
    """An unknown release is a BlockmazeError, and nothing is left at (or next to) the target."""
    with pytest.raises(bm.BlockmazeError, match="unknown Minecraft version"):
        bm.write(maze_volume(2, 2), tmp_path / "maze.schem", mc_version=mc_version)
    assert list(tmp_path.iterdir()) == []


def test_no_bands_is_a_clear_error():
    """A streamed .schem of no bands at all is refused in one line (it once failed unpacking the
    shape of a first band that was never made)."""
    with pytest.raises(bm.BlockmazeError, match="at least one band"):
        write_schem_bands(lambda: iter(()), io.BytesIO(), THEME)


@pytest.mark.parametrize("schem_version", SCHEM_VERSIONS)
@pytest.mark.parametrize("shape", [(1, 1, 40000), (1, 40000, 1), (40000, 1, 1)],
                         ids=["width", "length", "height"])
def test_side_of_40000_round_trips_unsigned(shape, schem_version):
    """A side over 32767 is stored in a signed Short and read back as 40000 by an unsigned reader."""
    volume = np.zeros(shape, np.uint8)
    volume.flat[::3] = bm.Material.WALL
    schem = read_schem(schem_bytes(volume, schem_version))
    height, length, width = shape
    assert (schem.width, schem.height, schem.length) == (width, height, length)
    assert_same_blocks(schem.blocks, expected_states(volume))


@pytest.mark.parametrize("schem_version", SCHEM_VERSIONS)
def test_same_seed_gives_identical_bytes(schem_version, tmp_path):
    """Two runs from the same seed write byte-identical files (no time stamp anywhere)."""
    paths = [tmp_path / "first.schem", tmp_path / "second.schem"]
    for path in paths:
        bm.write(maze_volume(5, 6, seed=42), path, schem_version=schem_version)
    assert paths[0].read_bytes() == paths[1].read_bytes()


@pytest.mark.parametrize("schem_version", SCHEM_VERSIONS)
def test_path_by_suffix_and_stream_by_format_agree(schem_version, tmp_path):
    """Writing to a .schem path (format from the suffix) and to a stream (format given) agree."""
    volume = maze_volume()
    path = write_schem_file(volume, tmp_path, schem_version)
    assert path.read_bytes() == schem_bytes(volume, schem_version)


@pytest.mark.parametrize("schem_version", SCHEM_VERSIONS)
def test_empty_lists_are_typed_compound(schem_version):
    """Empty BlockEntities and Entities lists carry element type Compound, not End (§10)."""
    root = parse_nbt(schem_bytes(maze_volume(2, 2), schem_version))
    if schem_version == 2:
        lists = {"BlockEntities": root["BlockEntities"], "Entities": root["Entities"]}
    else:
        body = root["Schematic"]
        lists = {"Blocks.BlockEntities": body["Blocks"]["BlockEntities"], "Entities": body["Entities"]}
    for name, tag in lists.items():
        assert tag.id == nbt.TAG_LIST, name
        assert (len(tag), tag.tagID) == (0, nbt.TAG_COMPOUND), name


# --- properties -------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    shape=st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)),
    seed=st.integers(0, 2**32 - 1),
    schem_version=st.sampled_from(SCHEM_VERSIONS),
)
def test_random_volumes_round_trip(shape, seed, schem_version):
    """Any small random volume reads back from the checker equal to its source."""
    volume = random_volume(shape, seed)
    schem = read_schem(schem_bytes(volume, schem_version), version=schem_version)
    assert_same_blocks(schem.blocks, expected_states(volume))


@settings(max_examples=25, deadline=None)
@given(
    rows=st.integers(1, 6), cols=st.integers(1, 6), seed=st.integers(0, 2**32 - 1),
    roof=st.booleans(), schem_version=st.sampled_from(SCHEM_VERSIONS),
)
def test_mazes_round_trip(rows, cols, seed, roof, schem_version):
    """Any small maze, roofed or not, reads back from the checker equal to its volume."""
    volume = maze_volume(rows, cols, seed, roof)
    schem = read_schem(schem_bytes(volume, schem_version), version=schem_version)
    assert_same_blocks(schem.blocks, expected_states(volume))


# --- the checker rejects broken files -----------------------------------------------------------


@lru_cache
def good_file(schem_version: int) -> bytes:
    """A valid small maze file to break (palette < 128 entries, so each index is one byte)."""
    return schem_bytes(maze_volume(2, 3), schem_version)


def load_nbt(data: bytes) -> nbtlib.File:
    return nbtlib.File.parse(io.BytesIO(gzip.decompress(data)))


def dump_nbt(root: nbtlib.File) -> bytes:
    raw = io.BytesIO()
    root.write(raw)
    return gzip.compress(raw.getvalue(), mtime=0)


def nbt_edit(edit):
    """A bytes -> bytes tamper: decompress, ``edit(root, body, blocks)`` in place, gzip again.

    ``body`` holds the schematic fields (the root for v2), ``blocks`` the palette and data.
    """
    def tamper(data: bytes) -> bytes:
        root = load_nbt(data)
        body = root["Schematic"] if "Schematic" in root else root
        edit(root, body, body.get("Blocks", body))
        return dump_nbt(root)
    return tamper


def data_edit(change):
    """A tamper replacing the block data bytes with ``change(data, palette_size)``."""
    def edit(root, body, blocks):
        name = "BlockData" if "BlockData" in blocks else "Data"
        data = change(np.asarray(blocks[name]).view(np.uint8).tobytes(), len(blocks["Palette"]))
        blocks[name] = nbtlib.ByteArray(np.frombuffer(data, dtype=np.int8))
    return nbt_edit(edit)


def rename_palette_key(blocks, new_key: str) -> None:
    """Give the last palette entry another name, keeping its index."""
    old_key = list(blocks["Palette"])[-1]
    blocks["Palette"][new_key] = blocks["Palette"].pop(old_key)


BROKEN = [
    pytest.param(2, lambda d: gzip.decompress(d), "not gzipped", id="not-gzipped"),
    pytest.param(3, lambda d: d[:4] + (1700000000).to_bytes(4, "little") + d[8:], "mtime",
                 id="gzip-mtime-set"),
    pytest.param(2, nbt_edit(lambda r, s, b: s.update(PaletteMax=Int(len(b["Palette"]) - 1))),
                 "PaletteMax is .* entries", id="v2-palettemax-is-max-index"),
    pytest.param(2, nbt_edit(lambda r, s, b: s.pop("PaletteMax")), "PaletteMax is missing",
                 id="v2-palettemax-missing"),
    pytest.param(3, nbt_edit(lambda r, s, b: b.update(PaletteMax=Int(len(b["Palette"])))),
                 "v3 has no PaletteMax", id="v3-palettemax-present"),
    pytest.param(2, nbt_edit(lambda r, s, b: s.update(Width=Int(s["Width"]))),
                 "Width must be a TAG_Short, found TAG_Int", id="v2-width-as-int"),
    pytest.param(3, nbt_edit(lambda r, s, b: s.update(Length=Int(s["Length"]))),
                 "Length must be a TAG_Short, found TAG_Int", id="v3-length-as-int"),
    pytest.param(2, nbt_edit(lambda r, s, b: s.pop("DataVersion")), "DataVersion is missing",
                 id="v2-no-dataversion"),
    pytest.param(3, nbt_edit(lambda r, s, b: s.pop("DataVersion")), "DataVersion is missing",
                 id="v3-no-dataversion"),
    pytest.param(2, nbt_edit(lambda r, s, b: setattr(r, "root_name", "")), "root tag is named ''",
                 id="v2-root-unnamed"),
    pytest.param(2, nbt_edit(lambda r, s, b: setattr(r, "root_name", "schematic")),
                 "root tag is named 'schematic'", id="v2-root-wrong-case"),
    pytest.param(3, nbt_edit(lambda r, s, b: s.update(Version=Int(2))), "Version is 2",
                 id="v3-layout-says-version-2"),
    pytest.param(2, nbt_edit(lambda r, s, b: s.update(Offset=IntArray([0, 0]))),
                 "Offset must hold 3 ints", id="v2-offset-two-ints"),
    pytest.param(2, nbt_edit(lambda r, s, b: s["Metadata"].pop("WEOffsetY")),
                 "Metadata.WEOffsetY is missing", id="v2-no-weoffset"),
    pytest.param(2, data_edit(lambda data, n: data[:-1]), r"decodes to \d+ values",
                 id="v2-blockdata-one-byte-short"),
    pytest.param(3, data_edit(lambda data, n: data + b"\x00"), r"decodes to \d+ values",
                 id="v3-data-one-byte-long"),
    pytest.param(2, data_edit(lambda data, n: data[:-1] + b"\x81"), "ends inside a varint",
                 id="v2-blockdata-unfinished-varint"),
    pytest.param(2, data_edit(lambda data, n: bytes([n]) + data[1:]), "outside the palette",
                 id="v2-index-outside-palette"),
    pytest.param(3, data_edit(lambda data, n: data[:-1] + bytes([n])), "outside the palette",
                 id="v3-index-outside-palette"),
    pytest.param(2, nbt_edit(lambda r, s, b: b["Palette"].update({"minecraft:air": Int(7)})),
                 "exactly 0..", id="v2-palette-gap"),
    pytest.param(3, nbt_edit(lambda r, s, b: b["Palette"].update({"minecraft:air": Int(1)})),
                 "same index", id="v3-palette-duplicate-index"),
    pytest.param(2, nbt_edit(lambda r, s, b: rename_palette_key(b, "minecraft:stöne")),
                 "not ASCII", id="v2-palette-key-not-ascii"),
    pytest.param(3, nbt_edit(lambda r, s, b: rename_palette_key(b, "Stone Bricks")),
                 "not a block state", id="v3-palette-key-not-a-state"),
    pytest.param(2, nbt_edit(lambda r, s, b: s.update(BlockEntities=List([]))),
                 "BlockEntities must be a list of TAG_Compound, its element type is TAG_End",
                 id="v2-blockentities-end-typed"),
    pytest.param(3, nbt_edit(lambda r, s, b: b.update(BlockEntities=List([]))),
                 "BlockEntities must be a list of TAG_Compound", id="v3-blockentities-end-typed"),
    pytest.param(3, nbt_edit(lambda r, s, b: s.update(BlockEntities=b.pop("BlockEntities"))),
                 "Schematic.BlockEntities is a v2 field", id="v3-blockentities-outside-blocks"),
    pytest.param(2, nbt_edit(lambda r, s, b: s.pop("BlockEntities")), "BlockEntities is missing",
                 id="v2-no-blockentities"),
    pytest.param(3, nbt_edit(lambda r, s, b: s.update(Entities=List([]))),
                 "Entities must be a list of TAG_Compound", id="v3-entities-end-typed"),
]


@pytest.mark.parametrize("schem_version, tamper, message", BROKEN)
def test_checker_rejects_broken_file(schem_version, tamper, message):
    """Each deliberately broken file fails the checker with a message naming the rule."""
    with pytest.raises(SchemError, match=message):
        read_schem(tamper(good_file(schem_version)))


@pytest.mark.parametrize("schem_version", SCHEM_VERSIONS)
def test_untampered_round_trip_through_nbtlib_passes(schem_version):
    """Decompressing and re-gzipping a good file without an edit keeps it valid (the control case)."""
    original = good_file(schem_version)
    rewritten = nbt_edit(lambda root, body, blocks: None)(original)
    assert gzip.decompress(rewritten) == gzip.decompress(original)
    read_schem(rewritten, version=schem_version)
