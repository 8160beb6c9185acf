"""The command line a careful user trusts: the seed always reported, options that do not apply
warned about, -q and -v, standard output as a target, exit codes for stops and closed pipes."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time

import pytest

from blockmaze.cli import main
from blockmaze.support.stops import Interrupted


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("args", [["generate", "4x5"], ["blockwise", "9x9"], ["dungeon", "12x14"]])
def test_the_seed_is_reported_on_stderr_when_the_maze_is_printed(capsys, args):
    code, out, err = run(capsys, *args)
    assert code == 0 and out and "seed" not in out
    seed = err.split("seed ")[1].split()[0]
    assert run(capsys, *args, "--seed", seed)[1] == out  # the same maze again
    assert run(capsys, "-q", *args, "--seed", seed)[2] == ""  # -q: nothing on stderr


@pytest.mark.parametrize("args, warned", [
    (["generate", "3x3", "-o", "{tmp}/m.obj", "--mc-version", "1.21"], "--mc-version does not apply to obj output"),
    (["generate", "3x3", "-o", "{tmp}/m.schem", "--scale", "5"], "--scale does not apply to square mazes"),
    (["generate", "3x3", "-g", "hex", "-o", "{tmp}/m.schem", "--wall", "2"], "--wall does not apply to hex mazes"),
    (["generate", "3x3", "-o", "{tmp}/m.png", "--height", "5"], "--height does not apply to png output"),
    (["generate", "3x3", "-o", "{tmp}/m.tmx", "--roof"], "--roof does not apply to tmx output"),
    (["generate", "3x3", "-o", "{tmp}/m.schem", "--text-style", "ascii"], "--text-style does not apply"),
    (["generate", "3x3", "--block-size", "2"], "--block-size does not apply to a printed maze"),
    (["blockwise", "9x9", "--ordering", "prim"], "--ordering does not apply to --mode strict"),
    (["blockwise", "9x9", "--mode", "relaxed", "--cells", "2x2"], "--cells does not apply to --mode relaxed"),
    (["dungeon", "12x12", "-o", "{tmp}/d.tmx", "--lights"], "--lights does not apply to tmx output"),
])
def test_options_that_do_not_apply_are_warned_about(capsys, tmp_path, args, warned):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    code, _, err = run(capsys, "-q", *args)
    assert code == 0 and err.startswith("Warning: ") and warned in err and err.count("\n") == 1


def test_options_that_apply_are_not_warned_about(capsys, tmp_path):
    code, _, err = run(capsys, "generate", "3x3", "-o", str(tmp_path / "m.schem"), "--wall", "2",
                       "--mc-version", "1.21", "--height", "4", "--theme", "glass")
    assert code == 0 and "Warning" not in err


def test_standard_output_carries_the_same_bytes_as_a_file(tmp_path, capfdbinary):
    assert main(["-q", "generate", "4x4", "--seed", "3", "-o", str(tmp_path / "m.schem")]) == 0
    assert main(["-q", "generate", "4x4", "--seed", "3", "-o", "-", "-f", "schem"]) == 0
    assert capfdbinary.readouterr().out == (tmp_path / "m.schem").read_bytes()


def test_a_device_and_a_symlink_through_the_command(tmp_path, capsys):
    assert main(["generate", "3x3", "-o", "/dev/null", "-f", "schem"]) == 0
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    (tmp_path / "link.schem").symlink_to("real.schem")
    assert main(["generate", "3x3", "-o", str(tmp_path / "link.schem")]) == 0
    assert (tmp_path / "link.schem").is_symlink() and (tmp_path / "real.schem").is_file()


@pytest.mark.parametrize("stop, code", [(KeyboardInterrupt(), 130),
                                        (Interrupted(signal.SIGTERM), 143),
                                        (Interrupted(signal.SIGHUP), 129)])
def test_a_stopped_run_is_one_line_and_changes_nothing(tmp_path, capsys, monkeypatch, stop, code):
    import blockmaze.export.meshes.obj as writers

    for name in ("m.obj", "m.mtl"):
        (tmp_path / name).write_bytes(b"old")
    real = writers.write_mtl

    def stopped(*args, **kwargs):  # the .mtl is written, then the run is stopped
        real(*args, **kwargs)
        raise stop

    monkeypatch.setattr(writers, "write_mtl", stopped)
    result, out, err = run(capsys, "generate", "3x3", "-o", str(tmp_path / "m.obj"))
    assert result == code and err.lstrip("\n").startswith("Error: ") and err.strip().count("\n") == 0
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == {"m.obj": b"old", "m.mtl": b"old"}


def test_a_stop_after_a_step_that_put_files_in_place_names_them(tmp_path, capsys, monkeypatch):
    """A world's change written whole (a deferred step), then a stop before the run ends: the one
    line names what was written, never "no file was changed"."""
    import blockmaze.export.meshes.obj as writers
    from blockmaze.support import stops

    def stopped(*args, **kwargs):
        with stops.deferred() as written:
            written.append(tmp_path / "W" / "db")
        os.kill(os.getpid(), signal.SIGTERM)  # (taken by the run's handler here)
        time.sleep(5)

    monkeypatch.setattr(writers, "write_mtl", stopped)
    result, out, err = run(capsys, "generate", "3x3", "-o", str(tmp_path / "m.obj"))
    assert result == 143 and err.strip().count("\n") == 0
    assert "after the renames finished: wrote" in err and str(tmp_path / "W" / "db") in err


def test_an_internal_error_is_one_line_and_its_traceback_under_v(capsys, monkeypatch):
    monkeypatch.setattr("blockmaze.pipeline.make_maze", lambda *a, **k: 1 / 0)
    code, _, err = run(capsys, "generate", "3x3")
    assert code == 1 and err.startswith("Error: internal error (ZeroDivisionError")
    assert "Traceback" not in err
    code, _, err = run(capsys, "-v", "generate", "3x3")
    assert code == 1 and "Traceback" in err


def _blockmaze(*args, **kwargs):
    env = dict(os.environ, BLOCKMAZE_KERNELS="python")
    return subprocess.Popen([sys.executable, "-m", "blockmaze", *args], env=env,
                            stderr=subprocess.PIPE, text=True, **kwargs)


@pytest.mark.slow
def test_a_full_standard_output_is_one_line_exit_1():
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    with open("/dev/full", "w") as full:
        process = _blockmaze("generate", "20x20", stdout=full)
        _, err = process.communicate(timeout=60)
    assert process.returncode == 1 and err.startswith("Error: cannot write")
    assert "Traceback" not in err and "Exception ignored" not in err and err.count("Error") == 1


@pytest.mark.slow
def test_a_closed_pipe_is_never_a_traceback():
    """Python may or may not see the closed pipe (it did not on the machine this was written
    on); either way no traceback, and a failure is one line with exit code 1."""
    process = _blockmaze("generate", "100x100", stdout=subprocess.PIPE)
    process.stdout.read(10)
    process.stdout.close()  # the reader goes away, as `| head -c 10` does
    err = process.stderr.read()
    code = process.wait(timeout=60)
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert code == 0 or (code == 1 and err.startswith("Error: cannot write")), (code, err)


@pytest.mark.parametrize("args", [["generate", "3x3"], ["blockwise", "9x9"], ["dungeon", "12x12"],
                                  ["generate", "3x3", "-g", "hex"]])
def test_every_command_writes_to_standard_output(capfdbinary, args):
    assert main(["-q", *args, "--seed", "4", "-o", "-", "-f", "ascii"]) == 0
    assert capfdbinary.readouterr().out.startswith(b"; blockmaze ascii map")


@pytest.mark.parametrize("command, absent", [
    ("dungeon", ("--scale", "--picture-style", "--cell-size", "--shade", "--solution", "--wall")),
    ("blockwise", ("--scale", "--picture-style", "--solution", "--bridges")),
])
def test_help_lists_only_the_options_that_apply(capsys, command, absent):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and not [flag for flag in absent if flag in out]
    code, _, err = run(capsys, command, "12x12", absent[0], "3")
    assert code == 2 and "No such option" in err


def test_a_mask_alone_gives_the_maze_its_size(capsys, tmp_path):
    mask = tmp_path / "mask.txt"
    mask.write_text("..X..\n.....\nX...X\n")
    code, _, err = run(capsys, "generate", "--mask", str(mask), "--seed", "2", "-o",
                       str(tmp_path / "m.json"))
    assert code == 0 and "square 3x5 cells" in err, err
    code, _, err = run(capsys, "generate", "--seed", "2")
    assert code == 2 and err.startswith("Error: Missing argument 'SIZE'") and err.count("\n") == 1


def test_a_mask_of_undocumented_characters_is_warned_about(capsys, tmp_path):
    mask = tmp_path / "mask.txt"
    mask.write_text("#..#\n....\n")
    code, _, err = run(capsys, "generate", "2x4", "--mask", str(mask), "--seed", "1")
    assert code == 0 and err.startswith("Warning: the mask template holds '#'"), err


@pytest.mark.parametrize("args, said", [
    (["generate", "6", "-g", "polar", "-o", "{tmp}/p.schem"], "polar 6 rings"),
    (["generate", "3x3", "-o", "{tmp}/m.obj"], "m.obj and m.mtl beside it"),
    (["generate", "3x3", "-o", "{tmp}/m.tmx", "--external-tileset"],
     "m.tmx and m-tiles.png, m-tiles.tsx beside it"),
])
def test_what_was_written_is_named_in_full(capsys, tmp_path, args, said):
    code, _, err = run(capsys, *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert code == 0 and said in err, err


@pytest.mark.parametrize("args, code, message", [
    (["generate", "5x5", "--memory-limit", "1K", "-o", "{tmp}/m.schem"], 2, "the limit set is 1.0 KiB"),
    (["generate", "5x5", "-o", "{tmp}/no/such/folder/m.schem"], 1, "does not exist"),
    (["blockwise", "9x21x21", "-o", "{tmp}/x.txt"], 2, "a 3-D blockwise maze has 9 layers and ascii holds one"),
])
def test_refusals_say_what_to_do_with_the_readmes_exit_code(capsys, tmp_path, args, code, message):
    got, _, err = run(capsys, *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert got == code and message in err and err.count("\n") == 1, err
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]


@pytest.mark.parametrize("args, message", [
    (["generate", "5x5", "-g", "weave", "--weave", "0.5", "--picture-style", "blocks", "-o",
      "{tmp}/w.png"], "the blocks picture style cannot show a weave maze's crossings"),
    (["generate", "4x4", "--block-size", "1e-320", "-o", "{tmp}/d.glb"], "--block-size"),
])
def test_internal_errors_became_one_line_refusals(capsys, tmp_path, args, message):
    code, _, err = run(capsys, *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert code == 2 and message in err and err.count("\n") == 1, err
    assert not list(tmp_path.iterdir())


def test_a_huge_spawn_count_is_a_usage_error(capsys, tmp_path):
    code, _, err = run(capsys, "dungeon", "10x10", "--spawns", "99999999999:1:1", "-o",
                       str(tmp_path / "d.schem"))
    assert code == 2 and "--spawns asks for 100000000001 spawn points" in err
    assert err.count("\n") == 1 and not list(tmp_path.iterdir())
