"""One seed, the same blocks everywhere: a theme's weighted variants (mossy, cracked bricks) depend
only on the seed and each block's position, so every Minecraft format of one volume, written in
memory, streamed in bands or cut into tiles, holds the same block at every position.

Each format is read back by the reader its other tests use (schem and structure checkers over
twoolie ``nbt``, litemapy, anvil-parser2, the datapack replay, PyNBT for .mcstructure), and
compared with the in-memory Sponge v2 file of the same volume and seed.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

import blockmaze as bm
from blockmaze.export import volume_slices
from blockmaze.export.minecraft.blockdata import LEGACY_RELEASE, substitute
from blockmaze.export.minecraft.legacy import legacy_id
from blockmaze.export.minecraft.placement import player_spot
from blockmaze.export.minecraft.sponge import write_schem_bands, write_schem_tiles
from schem_checker import read_schem
from structure_checker import canonical_state, read_structure

THEME = bm.load_theme("stone-bricks")  # walls: stone bricks, some mossy, some cracked
SEEDS = (1, 2, 77)


def maze_volume(seed: int) -> np.ndarray:
    """A 20x13 maze, 4 layers: 41x27 blocks, three bands and two chunks across."""
    plan = bm.to_blocks(bm.generate((13, 20), rng=seed), wall=1, passage=1)
    return bm.extrude(plan, height=2, floor=True, roof=True)


def canonical(blocks: np.ndarray) -> np.ndarray:
    return np.vectorize(canonical_state, otypes=[object])(blocks)


def assert_same(found: np.ndarray, expected: np.ndarray, what: str) -> None:
    assert found.shape == expected.shape, f"{what}: shape (y, z, x) {found.shape} != {expected.shape}"
    differ = np.argwhere(found != expected)
    if differ.size:
        y, z, x = differ[0]
        pytest.fail(f"{what}: {len(differ)} blocks differ; first at x={x}, y={y}, z={z}: "
                    f"{found[y, z, x]!r} != {expected[y, z, x]!r}")


def written(volume: np.ndarray, format: str, **options) -> bytes:
    out = io.BytesIO()
    bm.write(volume, out, format=format, theme=THEME, **options)
    return out.getvalue()


@pytest.fixture(scope="module", params=SEEDS)
def case(request):
    """(seed, volume, the in-memory .schem v2's blocks as canonical states)."""
    seed = request.param
    volume = maze_volume(seed)
    reference = canonical(read_schem(written(volume, "schem", seed=seed), 2).blocks)
    return seed, volume, reference


def test_variants_are_drawn_and_depend_on_the_seed(case):
    seed, volume, reference = case
    walls = reference[volume == bm.Material.WALL]
    assert {"minecraft:mossy_stone_bricks", "minecraft:cracked_stone_bricks"} <= set(walls)
    other = canonical(read_schem(written(volume, "schem", seed=seed + 1)).blocks)
    assert (other != reference).any()


def test_schem_v3(case):
    seed, volume, reference = case
    assert_same(canonical(read_schem(written(volume, "schem", seed=seed, schem_version=3), 3).blocks),
                reference, ".schem v3")


def test_streamed_schem_equals_in_memory(case):
    seed, volume, reference = case
    out = io.BytesIO()
    write_schem_bands(lambda: volume_slices(volume), out, THEME, seed=seed)
    assert_same(canonical(read_schem(out.getvalue()).blocks), reference, "streamed .schem")


def test_schem_tiles_assemble_the_same_blocks(case, tmp_path):
    seed, volume, reference = case
    files = write_schem_tiles(volume_slices(volume), tmp_path / "m.schem", THEME, 16, seed=seed)
    assembled = np.full(volume.shape, None, dtype=object)
    for path in files:
        tile = read_schem(path.read_bytes())
        x0, _, z0 = tile.we_offset
        assembled[:, z0:z0 + tile.length, x0:x0 + tile.width] = canonical(tile.blocks)
    assert_same(assembled, reference, ".schem tiles")


def test_structure_nbt(case):
    seed, volume, reference = case
    found = read_structure(written(volume, "structure", seed=seed)).blocks
    air = volume == bm.Material.AIR  # a structure leaves air out unless asked
    assert_same(np.where(air, None, found), np.where(air, None, reference), "structure .nbt")


def test_litematic(case, tmp_path):
    from test_litematic import litemapy_blocks

    seed, volume, reference = case
    assert_same(canonical(litemapy_blocks(written(volume, "litematic", seed=seed), tmp_path)),
                reference, ".litematic (litemapy)")


def test_datapack(case):
    from test_datapack import build_in_world

    seed, volume, reference = case
    world, region, _ = build_in_world(written(volume, "datapack", seed=seed, mc_version="1.20.4"),
                                      volume.shape, spot=player_spot(volume)[:3])
    assert_same(canonical(world.blocks[region]), reference, "datapack")


@pytest.mark.slow
@pytest.mark.parametrize("streamed", [False, True], ids=["volume", "bands"])
def test_world_save(case, tmp_path, streamed):
    from test_world import anvil_blocks

    seed, volume, reference = case
    bm.write(volume, tmp_path / "W", format="world", theme=THEME, y=10, terrain="flat", seed=seed)
    assert_same(canonical(anvil_blocks(tmp_path / "W", volume.shape, 10)), reference, "world (anvil-parser2)")
    if streamed:
        from blockmaze.export.minecraft.world import write_world

        write_world(volume_slices(volume), tmp_path / "B", THEME, y=10, terrain="flat", seed=seed)
        assert_same(canonical(anvil_blocks(tmp_path / "B", volume.shape, 10)), reference, "world from bands")


@pytest.mark.slow
def test_legacy_schematic(case):
    from test_legacy_schematic import read_legacy

    seed, volume, reference = case
    found = read_legacy(written(volume, "schematic", seed=seed))
    expected = np.vectorize(lambda state: legacy_id(substitute(state, LEGACY_RELEASE)), otypes=[object])(reference)
    assert_same(np.vectorize(lambda i, d: (int(i), int(d)), otypes=[object])(found.ids, found.data),
                expected, ".schematic (ids, data)")


def test_mcstructure(case):
    from test_mcstructure import BEDROCK, key, read_mcstructure

    seed, volume, reference = case
    found, *_ = read_mcstructure(written(volume, "mcstructure", seed=seed))
    expected = np.vectorize(lambda state: key(*BEDROCK[state]), otypes=[object])(reference)
    assert_same(found, expected, ".mcstructure")
