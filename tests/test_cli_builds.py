"""The command line's builds that issue 15 changed: stacked dungeons, lights and --no-floor on
layered mazes, the hint for structure files, read back by the independent checkers."""

import numpy as np
import pytest

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


REFUSED = [  # (command line, the one message): each refused before anything is generated
    (["dungeon", "20x30", "--split", "16", "-o", "{tmp}/d.glb"], "--split cuts .schem files"),
    (["dungeon", "20x30", "--lights", "--no-floor", "-o", "{tmp}/d.schem"], "drop --no-floor"),
    (["dungeon", "20x30", "--levels", "2", "-o", "-", "-f", "tmx"], "give a file name"),
    (["blockwise", "20x30", "--lights", "--no-floor", "-o", "{tmp}/b.schem"], "drop --no-floor"),
    (["blockwise", "20x30", "--split", "16", "-o", "{tmp}/b.litematic"], "--split cuts .schem files"),
    (["blockwise", "5x20x30"], "a 3-D maze cannot be printed"),
    (["generate", "20x30", "--split", "16", "-o", "{tmp}/g.litematic"], "--split cuts .schem files"),
    (["generate", "20x30", "-a", "eller", "--split", "16", "-f", "world", "-o", "{tmp}/W"],
     "--split cuts .schem files"),
    (["generate", "20x30", "--lights", "--no-floor", "-o", "{tmp}/g.schem"], "drop --no-floor"),
    (["generate", "3x20x30", "-g", "layered", "-o", "-", "-f", "tmx"], "give a file name"),
]


@pytest.mark.parametrize("args, message", REFUSED, ids=[" ".join(a[:2]) + " " + m for a, m in REFUSED])
def test_refusals_come_before_any_work(args, message, capsys, tmp_path, monkeypatch):
    import blockmaze.dungeon
    import blockmaze.mazes.generation
    import blockmaze.streaming
    from blockmaze.blockwise import strict

    def never(*args, **kwargs):
        raise AssertionError("generated before refusing")

    for module, name in [(blockmaze.dungeon, "generate_dungeon"), (blockmaze.mazes.generation, "generate"),
                         (strict, "strict_plan"), (strict, "strict_volume_3d"),
                         (blockmaze.streaming, "volume_bands")]:
        monkeypatch.setattr(module, name, never)
    code, err = run(capsys, *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert code == 2 and message in err and err.count("\n") == 1, err
    assert not list(tmp_path.iterdir())


SIZES_REFUSED = [  # over a format's limits: refused before any work, as generate's are
    ["dungeon", "40000x10", "-o", "{tmp}/d.schem"],
    ["blockwise", "70000x40", "-o", "{tmp}/b.schem"],
    ["blockwise", "5x70000x40", "-o", "{tmp}/b.schem"],
]


@pytest.mark.parametrize("args", SIZES_REFUSED, ids=[" ".join(a[:2]) for a in SIZES_REFUSED])
def test_sizes_over_a_formats_limits_are_refused_first(args, capsys, tmp_path, monkeypatch):
    test_refusals_come_before_any_work(args, "too large for .schem", capsys, tmp_path, monkeypatch)
