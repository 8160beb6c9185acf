"""The command line: outputs, options, and one-line errors with exit code 2 for bad input."""

import os
import subprocess
import sys

import pytest

import blockmaze as bm
from blockmaze.cli import main


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_prints_a_box_drawing_maze(capsys):
    code, out, _ = run(capsys, "generate", "4x6", "--seed", "5")
    assert code == 0
    assert out == bm.maze_text(bm.generate((4, 6), rng=5)) + "\n"
    code, out, _ = run(capsys, "generate", "4x6", "--seed", "5", "--text-style", "ascii")
    assert out.startswith("+")


def test_writes_a_schematic_with_the_requested_geometry(tmp_path, capsys):
    target = tmp_path / "m.schem"
    code, _, err = run(capsys, "generate", "5x7", "--seed", "3", "--wall", "2", "--passage", "1x3",
                       "--height", "4", "--roof", "-o", str(target))
    assert code == 0 and target.exists()
    # plan: z = 6*2 + 5*1 = 17, x = 8*2 + 7*3 = 37; y = floor + 4 + roof = 6
    assert "37x6x17 blocks" in err and "seed 3" in err


def test_same_seed_gives_identical_bytes(tmp_path, capsys):
    for version in ("2", "3"):
        paths = [tmp_path / f"{version}-{i}.schem" for i in range(2)]
        for path in paths:
            assert run(capsys, "generate", "9x11", "--seed", "77", "--schem-version", version,
                       "-o", str(path))[0] == 0
        assert paths[0].read_bytes() == paths[1].read_bytes()
    assert (tmp_path / "2-0.schem").read_bytes() != (tmp_path / "3-0.schem").read_bytes()


def test_seed_is_drawn_and_reported_when_omitted(tmp_path, capsys):
    code, _, err = run(capsys, "generate", "3x3", "-o", str(tmp_path / "a.schem"))
    seed = err.rsplit("seed ", 1)[1].strip()
    run(capsys, "generate", "3x3", "--seed", seed, "-o", str(tmp_path / "b.schem"))
    assert (tmp_path / "a.schem").read_bytes() == (tmp_path / "b.schem").read_bytes()


BAD_INPUT = [
    (["generate", "0x5"], "size must be"),
    (["generate", "-3x5"], "No such option"),
    (["generate", "5by5"], "size must be"),
    (["generate", "5x5", "--wall", "0"], "wall thickness must be"),
    (["generate", "5x5", "--passage", "1x0"], "passage thickness must be"),
    (["generate", "5x5", "--height", "0"], "--height"),
    (["generate", "5x5", "--seed", "-1"], "--seed"),
    (["generate", "5x5", "--algorithm", "nope"], "--algorithm"),
    (["generate", "5x5", "--mc-version", "1.2.5"], "--mc-version"),
    (["generate", "5x5", "-o", "{tmp}/m.xyz"], "cannot tell the format"),
    (["generate", "5x5", "--format", "schem"], "--format needs --output"),
    (["generate", "5x5", "-o", "{tmp}"], "{tmp}"),
    (["generate", "5x5", "--theme", "nope", "-o", "{tmp}/m.schem"], "no theme 'nope'"),
    (["generate", "40000x3", "-o", "{tmp}/m.schem"], "too large for .schem"),
    (["generate", "12000x12000"], "GiB of memory"),  # with 1 GiB available (see the fixture)
    (["generate", "100000x100000"], "at most 2147483647 cells"),
    (["frobnicate"], "No such command"),
    (["gen"], "No such command 'gen'. Did you mean 'generate'?"),  # a command it begins
    (["dungen"], "Did you mean 'dungeon'?"),  # spelt alike
    (["xyz"], "No such command 'xyz'. Commands: batch, blockwise, book, docs, dungeon, "),  # no guess: the list
]


@pytest.mark.parametrize("args, message", BAD_INPUT, ids=[" ".join(a) for a, _ in BAD_INPUT])
def test_bad_input_is_one_line_exit_2_and_no_file(tmp_path, capsys, monkeypatch, args, message):
    monkeypatch.setattr("blockmaze.support.memory.available_memory", lambda: 1 << 30)
    keep = tmp_path / "keep.schem"
    keep.write_bytes(b"untouched")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    code, out, err = run(capsys, *args)
    assert code == 2
    assert err.startswith("Error: ") and err.count("\n") == 1
    assert message.replace("{tmp}", str(tmp_path)) in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.schem"]
    assert keep.read_bytes() == b"untouched"


def test_existing_file_survives_a_refused_overwrite(tmp_path, capsys):
    target = tmp_path / "m.schem"
    target.write_bytes(b"precious")
    code, _, _ = run(capsys, "generate", "40000x3", "-o", str(target))
    assert code == 2 and target.read_bytes() == b"precious"


def test_help_lists_choices_and_ends_with_examples(capsys):
    for args in (["--help"], ["generate", "--help"], ["export", "--help"]):
        code, out, _ = run(capsys, *args)
        assert code == 0
        *_, example, _, docs = out.rstrip().splitlines()  # then the page to read (tests/test_docs.py)
        assert example.strip().startswith("blockmaze ") and docs.strip().startswith("Docs: ")
        assert "Examples:" in out
    code, out, _ = run(capsys, "generate", "--help")
    assert all(name in out for name in bm.ALGORITHMS)
    assert "1.20.4" in out and "[2|3]" in out and "growing-tree" in out


def test_every_option_is_in_a_help_group_listed_in_order(capsys):
    """Each option's help group is one of GROUPS (``generate --help`` once left the Paper group's
    --page, --answers and --sheets out: its group was not among them)."""
    from blockmaze.commands import DESCRIBED, GROUPS, options_of

    stray = {(command, o.name, o.group) for command in DESCRIBED for o in options_of(command)
             if not o.argument and o.group not in GROUPS}
    assert not stray
    code, out, _ = run(capsys, "generate", "--help")
    assert code == 0 and "Paper options:" in out
    assert all(f"--{name}" in out for name in ("page", "answers", "sheets"))


def test_real_process_exit_code_and_no_traceback(tmp_path):
    env = dict(os.environ)
    result = subprocess.run([sys.executable, "-m", "blockmaze", "generate", "2x2", "--wall", "-1"],
                            capture_output=True, text=True, env=env, cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and result.stderr.startswith("Error: ")


def test_maze_document_then_export_gives_the_same_schematic(tmp_path, capsys):
    direct = tmp_path / "direct.schem"
    args = ["-a", "backtracker", "--seed", "11", "--braid", "0.4", "--entrances"]
    assert run(capsys, "generate", "7x9", *args, "--solution", "-o", str(direct))[0] == 0
    assert run(capsys, "generate", "7x9", *args, "-o", str(tmp_path / "m.json"))[0] == 0
    exported = tmp_path / "exported.schem"
    assert run(capsys, "export", str(tmp_path / "m.json"), "--solution", "-o", str(exported))[0] == 0
    assert exported.read_bytes() == direct.read_bytes()
    code, out, _ = run(capsys, "export", str(tmp_path / "m.json"), "--solution")
    assert code == 0 and "S" in out and "G" in out


def test_export_refuses_a_broken_document(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"type": "blockmaze-maze", "version": 1}')
    code, _, err = run(capsys, "export", str(bad), "-o", str(tmp_path / "x.schem"))
    assert code == 1 and err.startswith(f"Error: {bad}: maze document: grid must be")
    assert not (tmp_path / "x.schem").exists()


def test_other_grid_kinds_and_masks(tmp_path, capsys):
    for args, shape in ((["8x10", "-g", "hex"], [8, 10]), (["5", "-g", "polar"], [5]),
                        (["2x4x4", "-g", "layered"], [2, 4, 4])):
        target = tmp_path / "m.json"
        assert run(capsys, "generate", *args, "--seed", "1", "-o", str(target))[0] == 0
        assert bm.load_maze(target).maze.grid.shape == tuple(shape)
        assert bm.load_maze(target).maze.is_perfect()
    mask = tmp_path / "mask.txt"
    mask.write_text("......\n.XXX..\n.XXX..\n......\n")
    code, out, _ = run(capsys, "generate", "4x6", "--mask", str(mask), "--seed", "2")
    assert code == 0 and "░" in out
    mask.write_text("..X.\n..X.\n..X.\n")
    code, _, err = run(capsys, "generate", "3x4", "--mask", str(mask))
    assert code == 2 and "separate regions" in err
    code, _, err = run(capsys, "generate", "5x5", "-g", "polar")
    assert code == 2 and "size is RINGS" in err


def test_mesh_options_reach_the_writers(tmp_path, capsys):
    import trimesh
    target = tmp_path / "m.stl"
    assert run(capsys, "generate", "6x6", "--seed", "1", "--block-size", "2", "-o", str(target))[0] == 0
    stl = trimesh.load(target)
    assert stl.is_watertight and stl.bounds[1].tolist() == [26.0, 26.0, 8.0]  # 13x13x4 blocks of 2 mm, Z-up
    raw, tight = tmp_path / "raw.glb", tmp_path / "tight.glb"
    run(capsys, "generate", "6x6", "--seed", "1", "--raw-mesh", "-o", str(raw))
    run(capsys, "generate", "6x6", "--seed", "1", "-o", str(tight))
    assert raw.stat().st_size < tight.stat().st_size
    assert run(capsys, "generate", "6x6", "--seed", "1", "-o", str(tmp_path / "m.obj"))[0] == 0
    assert (tmp_path / "m.mtl").exists() and "mtllib m.mtl" in (tmp_path / "m.obj").read_text()


@pytest.mark.parametrize("args", [["8x8", "-g", "hex"], ["4", "-g", "polar"], ["5x6", "-g", "upsilon"],
                                  ["4x6", "-g", "triangle"], ["2x4x4", "-g", "layered"]])
def test_every_grid_kind_becomes_blocks(tmp_path, capsys, args):
    from blockmaze.readers.info import inspect_file
    target = tmp_path / "m.schem"
    code, _, err = run(capsys, "generate", *args, "--seed", "3", "--solution", "-o", str(target))
    assert code == 0, err
    info = inspect_file(target)
    assert "minecraft:gold_block" in info.counts  # the solution is marked
    if "layered" not in args:
        code, out, _ = run(capsys, "generate", *args, "--seed", "3")
        assert code == 0 and "█" in out


def test_too_small_scale_is_refused(tmp_path, capsys):
    code, _, err = run(capsys, "generate", "5x5", "-g", "triangle", "--scale", "3", "-o", str(tmp_path / "t.schem"))
    assert code == 2 and "--scale 5 or more" in err and not list(tmp_path.iterdir())


@pytest.mark.parametrize("given, expected", [(None, "1"), ("3", "3")])
def test_the_command_starts_numpy_with_one_blas_thread_unless_told(given, expected):
    """blockmaze does no linear algebra: the command asks OpenBLAS for one thread (a thread per
    core spins at numpy's import); a user's own setting stands."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    script = ("import os, sys; sys.argv = ['blockmaze', '--version']; import blockmaze.__main__ as m\n"
              "try:\n    m.run()\nexcept SystemExit:\n    pass\n"
              "print(os.environ['OPENBLAS_NUM_THREADS'])")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert out.splitlines()[-1] == expected


def test_the_program_ends_without_teardown_but_after_its_exit_handlers_and_all_its_output():
    """program() leaves by os._exit (Python's teardown costs a small job a sixth of its time):
    the exit handlers run first, every line reaches a pipe, the exit code stands."""
    script = ("import atexit, sys; atexit.register(print, 'handler ran')\n"
              "sys.argv = ['blockmaze', 'generate', '60x60', '--seed', '1']\n"
              "from blockmaze.__main__ import program\nprogram()")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    expected = subprocess.run([sys.executable, "-m", "blockmaze", "generate", "60x60", "--seed", "1"],
                              capture_output=True, text=True).stdout
    assert result.returncode == 0 and len(expected.splitlines()) == 2 * 60 + 1
    assert result.stdout == expected + "handler ran\n"
    bad = subprocess.run([sys.executable, "-m", "blockmaze", "generate", "2x2", "--wall", "0"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


@pytest.mark.parametrize("value", ["abc", "-1", "1.5", str(2 ** 64)])
def test_a_bad_seed_says_what_a_seed_is(capsys, value):
    code, _, err = run(capsys, "generate", "5x5", "--seed", value)
    assert code == 2 and err.count("\n") == 1, err
    assert "a whole number from 0 to 2**64-1" in err and "integer range" not in err, err


@pytest.mark.parametrize("given, name", [("json", "maze"), (".json", "maze"), ("JSON", "maze"),
                                         ("txt", "ascii"), ("nbt", "structure"),
                                         ("tilemap.json", "tilemap"), ("Schem", "schem")])
def test_a_format_is_taken_by_its_suffix_too(tmp_path, capsys, given, name):
    """``--format json`` writes what ``-o m.json`` writes: the format the suffix names."""
    from blockmaze.export import FORMATS

    suffix = FORMATS[name].suffixes[0]
    by_format, by_suffix = tmp_path / "by-format", tmp_path / f"by-suffix{suffix}"
    code, _, err = run(capsys, "generate", "5x5", "--seed", "4", "-f", given, "-o", str(by_format))
    assert code == 0, err
    assert run(capsys, "generate", "5x5", "--seed", "4", "-o", str(by_suffix))[0] == 0
    assert by_format.read_bytes() == by_suffix.read_bytes()


def test_an_unknown_format_names_the_suffixes_that_differ_from_names(capsys):
    code, _, err = run(capsys, "generate", "5x5", "-f", "jsn", "-o", "m.jsn")
    assert code == 2 and err.count("\n") == 1, err
    assert ".json for maze" in err and ".txt for ascii" in err and ".schem for" not in err


@pytest.mark.parametrize("value, nearest", [("1.22", "the nearest are 1.21.11 and 26.1"),
                                            ("1.20.7", "the nearest are 1.20.6 and 1.21"),
                                            ("1.12.2", "the nearest is 1.13"),
                                            ("latest", "a release number such as 1.20.4")])
def test_an_unknown_release_names_the_nearest_and_the_range(capsys, value, nearest):
    code, _, err = run(capsys, "generate", "5x5", "--mc-version", value, "-o", "m.schem")
    assert code == 2 and err.count("\n") == 1, err
    assert nearest in err and "from 1.13 to 26.2" in err, err
    assert len(err) < 200 and "1.16.5" not in err, err  # not every release


def test_a_datapack_says_how_to_place_it_and_to_pick_the_release(tmp_path, capsys):
    """As the other Minecraft formats do: where to put it, what to run, and that the pack is for
    one release (--mc-version)."""
    code, _, err = run(capsys, "generate", "5x5", "--seed", "1", "-o", str(tmp_path / "m.zip"))
    hint = [line for line in err.splitlines() if line.startswith("to place it: ")]
    assert code == 0 and len(hint) == 1, err
    assert "<world>/datapacks/" in hint[0] and "/function blockmaze:build" in hint[0]
    assert "--mc-version" in hint[0] and "1.20.4" in hint[0]
