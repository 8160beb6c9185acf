"""The blockwise command: exact sizes, both modes, 3-D, and its errors."""

import numpy as np
import pytest

import blockmaze as bm
from blockmaze.cli import main
from blockmaze.readers.info import inspect_file


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
@pytest.mark.parametrize("args, size", [  # size: (width x, height y, length z)
    (["30x40"], (40, 4, 30)),
    (["31x41", "--wall", "1", "--passage", "1"], (41, 4, 31)),
    (["20x33", "--mode", "relaxed", "--ordering", "prim"], (33, 4, 20)),
    (["7x11x9", "-a", "wilson"], (9, 7, 11)),
])
def test_exact_sizes_in_blocks(tmp_path, capsys, args, size):
    """Sizes are ROWSxCOLS (north-south first), HEIGHTxROWSxCOLS in 3-D, as for generate."""
    target = tmp_path / "m.schem"
    code, _, err = run(capsys, "blockwise", *args, "--seed", "4", "-o", str(target))
    assert code == 0, err
    assert inspect_file(target).size == size


@pytest.mark.parametrize("plain, labelled", [
    ("31x41", "41Wx31L"), ("31x41", "41cx31r"), ("7x11x9", "9Wx11Lx7H"), ("7x11x9", "11R x 9C x 7H"),
])
def test_axis_letters_name_the_numbers_in_any_order(tmp_path, capsys, plain, labelled):
    """The old spelling (WxL[xH], x first) written with axis letters gives the same maze."""
    paths = []
    for size in (plain, labelled):
        paths.append(tmp_path / f"{len(paths)}.schem")
        code, _, err = run(capsys, "blockwise", size, "--seed", "3", "-o", str(paths[-1]))
        assert code == 0, err
        assert "note:" not in err  # no migration note for users who never used the old order
    assert paths[0].read_bytes() == paths[1].read_bytes()


def test_plan_rows_run_north_south(capsys):
    code, out, _ = run(capsys, "blockwise", "11x21", "--seed", "2", "--wall", "1", "--passage", "1")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 11 and {len(line) for line in lines} == {21}


def test_printed_plan_is_the_plan(capsys):
    code, out, _ = run(capsys, "blockwise", "11x21", "--seed", "2", "--wall", "1", "--passage", "1")
    plan = bm.strict_plan(11, 21, rng=2)
    drawn = np.array([[c != " " for c in line] for line in out.splitlines()])
    assert code == 0 and np.array_equal(drawn, bm.materials.SOLID[plan])


@pytest.mark.parametrize("args, message", [
    (["10x20", "--wall", "1", "--passage", "1"], "nearest possible lengths are 9 and 11"),
    (["5x10x20", "--mode", "relaxed"], "HEIGHTxROWSxCOLS for a strict 3-D maze"),
    (["20"], "ROWSxCOLS"),
    (["20Wx10"], "label every number"),
    (["20Wx10Q"], "label every number"),
    (["20x10", "--solution"], "No such option '--solution'"),
    (["20x10", "-o", "{tmp}/m.json"], "not a maze document"),
    (["9x9x9", "-a", "binary-tree", "-o", "{tmp}/m.schem"], "binary-tree"),
    (["9x9x9"], "a 3-D maze cannot be printed"),  # refused before any work
])
def test_errors(tmp_path, capsys, args, message):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    code, _, err = run(capsys, "blockwise", *args)
    assert code == 2 and message in err and err.count("\n") == 1


@pytest.mark.slow
def test_dungeon_command(tmp_path, capsys):
    code, out, _ = run(capsys, "dungeon", "12x20", "--seed", "3", "--min-shortcut", "10")
    assert code == 0 and "+" in out and "S" in out and "G" in out
    target = tmp_path / "d.tmx"
    code, _, err = run(capsys, "dungeon", "20x30", "--seed", "3", "--levels", "2", "-o", str(target))
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d-1-tiles.png", "d-1.tmx", "d-2-tiles.png", "d-2.tmx"]
    level = bm.generate_dungeon((20, 30), 3, levels=2).levels[0]
    direct = tmp_path / "direct" / "d-1.tmx"
    direct.parent.mkdir()
    bm.write(level.plan, direct, format="tmx", entities=level.entities)
    assert (tmp_path / "d-1.tmx").read_bytes() == direct.read_bytes()


@pytest.mark.parametrize("args, message", [
    (["10x10", "--room-size", "big"], "--room-size must be MIN:MAX"),
    (["10x10", "-o", "{tmp}/d.json"], "not a maze document"),
])
def test_dungeon_errors(tmp_path, capsys, args, message):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    code, _, err = run(capsys, "dungeon", *args)
    assert code == 2 and message in err


def test_generate_takes_axis_letters_too(tmp_path, capsys):
    made = []
    for size, kind in (("10x20", "square"), ("20Cx10R", "square"), ("2x3x4", "layered"), ("4Wx2Hx3L", "layered")):
        made.append(tmp_path / f"{len(made)}.json")
        code, _, err = run(capsys, "generate", size, "-g", kind, "--seed", "5", "-o", str(made[-1]))
        assert code == 0, err
    assert made[0].read_bytes() == made[1].read_bytes() and made[2].read_bytes() == made[3].read_bytes()
