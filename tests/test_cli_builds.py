"""The command line's builds that issue 15 changed: stacked dungeons, lights and --no-floor on
layered mazes, the hint for structure files, read back by the independent checkers."""

import numpy as np

from blockmaze.cli import main
from schem_checker import read_schem
from walkability import region_of, regions


def run(capsys, *args):
    code = main(list(args))
    _, err = capsys.readouterr()
    return code, err


def test_a_multi_level_dungeon_is_one_schematic(capsys, tmp_path):
    path = tmp_path / "keep.schem"
    code, err = run(capsys, "dungeon", "8x10", "--levels", "3", "--seed", "4", "--lights", "-o", str(path))
    assert code == 0 and "3 levels" in err
    assert not (tmp_path / "keep-1.schem").exists()
    schem = read_schem(path)
    assert schem.height == 3 * 4
    blocks = schem.blocks
    # two flights of 4 steps (spiral stairs), or shafts of scaffolding where no well fits
    climbs = np.vectorize(lambda s: s.startswith(("minecraft:stone_brick_stairs[", "minecraft:scaffolding[")))
    assert climbs(blocks).sum() >= 2 * 4
    assert (blocks == "minecraft:sea_lantern").sum() >= 3  # lights on every level
    labels = regions(blocks)
    (sy, sz, sx), = np.argwhere(blocks == "minecraft:emerald_block")  # stone-bricks START
    (gy, gz, gx), = np.argwhere(blocks == "minecraft:redstone_block")  # and GOAL
    assert region_of(labels, sy + 1, sz, sx) == region_of(labels, gy + 1, gz, gx) != 0


def test_layered_lights_and_no_floor(capsys, tmp_path):
    lit, bare = tmp_path / "lit.schem", tmp_path / "bare.schem"
    assert run(capsys, "generate", "3x4x4", "-g", "layered", "--seed", "1", "--lights", "-o", str(lit))[0] == 0
    assert (read_schem(lit).blocks == "minecraft:sea_lantern").sum() >= 3
    assert run(capsys, "generate", "3x4x4", "-g", "layered", "--seed", "1", "--no-floor", "-o", str(bare))[0] == 0
    assert read_schem(bare).height == read_schem(lit).height - 1
    code, err = run(capsys, "generate", "3x4x4", "-g", "layered", "--lights", "--no-floor", "-o", str(bare))
    assert code == 2 and "drop --no-floor" in err


def test_structure_files_say_what_to_type(capsys, tmp_path):
    code, err = run(capsys, "generate", "5x5", "--seed", "2", "--entrances", "-o", str(tmp_path / "m.nbt"))
    assert code == 0 and "/place template minecraft:m ~" in err
    code, err = run(capsys, "generate", "5x5", "--seed", "2", "-o", str(tmp_path / "m.mcstructure"))
    assert code == 0 and "/structure load blockmaze:m ~" in err
    code, err = run(capsys, "generate", "5x5", "--seed", "2", "-o", str(tmp_path / "m.schem"))
    assert code == 0 and "to place it" not in err
