"""Writes only where asked, all or nothing: derived names beside regular files only, no file of
a run over another, one transaction for --split tiles, signals during the renames, leftovers of
killed runs, staged names short enough for long targets, and no short write passing as success."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from blockmaze.cli import main
from blockmaze.export import target as target_module
from blockmaze.export.target import remove_leftovers

ROOT = Path(__file__).resolve().parent.parent


def run(args, capsys) -> tuple[int, list[str]]:
    code = main(args)
    return code, capsys.readouterr().err.strip().splitlines()


@pytest.mark.parametrize("args", [
    ["generate", "40x40", "--split", "16", "-o", "/dev/null", "--format", "schem"],
    ["generate", "40x40", "--split", "16", "-o", "-", "--format", "schem"],
    ["dungeon", "20x20", "--levels", "2", "-o", "/dev/null", "--format", "tmj"],
    ["dungeon", "20x20", "--levels", "2", "-o", "-", "--format", "tmj"],
    ["generate", "5x5", "-o", "-", "--format", "world"],
])
def test_derived_names_are_refused_for_devices_and_standard_output(tmp_path, capsys, monkeypatch,
                                                                   args):
    monkeypatch.chdir(tmp_path)
    before = set(os.listdir("/dev"))
    code, err = run(args, capsys)
    assert code == 2 and len(err) == 1 and err[0].startswith("Error: "), err
    assert set(os.listdir("/dev")) == before and list(tmp_path.iterdir()) == []


@pytest.mark.slow
@pytest.mark.parametrize("args", [["-o", "m.mtl", "--format", "obj"], ["-o", "m.mtl"]])
def test_a_companion_never_replaces_the_main_output(tmp_path, capsys, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    code, err = run(["generate", "5x5", *args], capsys)
    assert code == 2 and len(err) == 1, err
    assert ".mtl" in err[0]
    assert list(tmp_path.iterdir()) == []


def test_split_tiles_are_one_transaction(tmp_path, capsys):
    (tmp_path / "m_x16_z16.schem").mkdir()  # one tile's name is taken by a folder
    code, err = run(["generate", "20x20", "--split", "16", "-o", str(tmp_path / "m.schem")], capsys)
    assert code != 0 and len(err) == 1, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m_x16_z16.schem"]  # no tile, no .part


def test_a_signal_during_the_renames_lets_them_finish_and_says_so(tmp_path, capsys, monkeypatch,
                                                                  terminal_signals):
    replace, calls = os.replace, []

    def replace_and_signal(source, destination):
        calls.append(destination)
        if len(calls) == 1:
            os.kill(os.getpid(), signal.SIGTERM)  # arrives between the renames
        replace(source, destination)

    monkeypatch.setattr(target_module.os, "replace", replace_and_signal)
    code, err = run(["generate", "20x20", "--split", "16", "-o", str(tmp_path / "m.schem")], capsys)
    assert code == 128 + signal.SIGTERM and len(err) == 1, err
    assert "after the renames finished" in err[0]
    names = sorted(p.name for p in tmp_path.iterdir())
    assert len(calls) > 1 and len(names) == len(calls) and not any(n.endswith(".part") for n in names)


def test_a_signal_while_a_temporary_is_made_stops_the_run_once_it_is_noted(tmp_path, capsys,
                                                                         monkeypatch,
                                                                         terminal_signals):
    """Not dropped, not raised half way (a temporary nobody would remove): the run stops as the
    step ends, and its temporary goes."""
    make = tempfile.mkstemp

    def signal_and_make(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGHUP)
        return make(*args, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", signal_and_make)  # (the module imports it when it makes one)
    code, err = run(["generate", "5x5", "-o", str(tmp_path / "m.schem")], capsys)
    assert (code, err) == (128 + signal.SIGHUP, ["Error: stopped by signal 1; no file was changed"])
    assert list(tmp_path.iterdir()) == []


def test_leftovers_of_killed_runs_are_removed_by_the_next_run(tmp_path, capsys):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    old = time.time() - 3600
    leftovers = [f".blockmaze-{dead.pid}-abcd1234.part", f".blockmaze-{dead.pid}-efgh5678.part"]
    for name in leftovers:
        (tmp_path / name).write_bytes(b"half")
    (tmp_path / leftovers[1]).unlink()
    (tmp_path / leftovers[1]).mkdir()  # a killed world's folder
    (tmp_path / leftovers[1] / "level.dat").write_bytes(b"x")
    kept = [f".blockmaze-{os.getppid()}-live0000.part",  # a run still going
            ".m.schem.abcd.part", "notes.part"]  # not our naming
    for name in kept:
        (tmp_path / name).write_bytes(b"keep")
    for name in leftovers + kept:
        os.utime(tmp_path / name, (old, old))
    code, _ = run(["generate", "5x5", "-o", str(tmp_path / "m.schem")], capsys)
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(kept + ["m.schem"])
    fresh = tmp_path / f".blockmaze-{dead.pid}-new00000.part"  # newer than this run: kept
    fresh.write_bytes(b"x")
    assert remove_leftovers(tmp_path) == []


def test_a_245_character_name_is_written(tmp_path, capsys):
    name = "m" * 240 + ".schem"
    code, err = run(["generate", "5x5", "-o", str(tmp_path / name)], capsys)
    assert code == 0, err
    assert [p.name for p in tmp_path.iterdir()] == [name]


def _limit_file_size():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))


@pytest.mark.slow
@pytest.mark.parametrize("unbuffered", ["1", ""])
def test_a_short_write_to_standard_output_fails_loudly(tmp_path, unbuffered):
    out = tmp_path / "out.txt"
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED=unbuffered)
    with open(out, "wb") as stdout:
        result = subprocess.run([sys.executable, "-m", "blockmaze", "generate", "150x150", "--seed",
                                 "1", "-o", "-", "--format", "ascii"], stdout=stdout,
                                stderr=subprocess.PIPE, text=True, env=env,
                                preexec_fn=_limit_file_size, timeout=120)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 1, result.stderr
    assert len(lines) == 1 and lines[0].startswith("Error: cannot write to standard output"), lines
    assert out.stat().st_size <= 20_000


@pytest.mark.slow
def test_a_closed_pipe_fails_loudly():
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    process = subprocess.Popen([sys.executable, "-m", "blockmaze", "generate", "300x300", "--seed",
                                "1", "-o", "-", "--format", "ascii"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env, text=True)
    process.stdout.read(10)
    process.stdout.close()
    err = process.stderr.read()
    assert process.wait(timeout=120) == 1, err
    assert len(err.strip().splitlines()) == 1 and "standard output" in err, err


def test_the_watchers_clean_up_waits_for_a_temporary_being_made(tmp_path, monkeypatch):
    """The stop watcher ends the process by force after removing the open runs' temporaries: a
    temporary being made as it looks (the main thread left waiting by a loaded machine) is noted
    first and removed too, and none is made after (an empty .part was left, 1 in ~1,500 kills)."""
    import tempfile
    import threading

    making, cleaned = threading.Event(), threading.Event()
    mkstemp = tempfile.mkstemp

    def slow_mkstemp(*args, **kwargs):
        made = mkstemp(*args, **kwargs)
        making.set()  # the file exists; the run has not noted it yet
        assert not cleaned.wait(0.3), "the clean-up ran while a temporary was being made"
        return made

    monkeypatch.setattr(tempfile, "mkstemp", slow_mkstemp)

    def clean_up():
        making.wait(10)
        target_module._remove_open_temporaries()
        cleaned.set()

    watcher = threading.Thread(target=clean_up)
    watcher.start()
    try:
        with target_module.transaction(), target_module.open_target(tmp_path / "m.bin") as file:
            file.write(b"data")
            watcher.join(10)
            assert cleaned.is_set()
            assert [p.name for p in tmp_path.iterdir()] == []  # its temporary is gone
            raise KeyboardInterrupt  # the process would have ended: leave without renaming
    except KeyboardInterrupt:
        pass
    finally:
        watcher.join(10)
        target_module._making.release()  # (the clean-up keeps it: the process ends next)
    assert list(tmp_path.iterdir()) == []


def test_a_stop_by_force_removes_a_staged_world_folder_with_what_it_holds(tmp_path):
    """A world save is written in a staged folder that the stop watcher's clean-up knows, as it
    knows staged files: a process ended by force leaves neither the folder nor its files."""
    final = tmp_path / "World"
    try:
        with target_module.staged_folder(final) as folder:
            (folder / "region").mkdir()
            (folder / "region" / "r.0.0.mca").write_bytes(b"chunks")
            target_module._remove_open_temporaries()  # what the watcher runs before the end
            assert list(tmp_path.iterdir()) == []
            raise KeyboardInterrupt  # the process would have ended: leave without renaming
    except KeyboardInterrupt:
        pass
    finally:
        target_module._making.release()  # (the clean-up keeps it: the process ends next)
    assert list(tmp_path.iterdir()) == []


def test_a_failed_world_leaves_no_staged_folder(tmp_path):
    final = tmp_path / "World"
    with pytest.raises(RuntimeError):
        with target_module.staged_folder(final) as folder:
            (folder / "level.dat").write_bytes(b"half")
            raise RuntimeError("a writer failed")
    assert list(tmp_path.iterdir()) == []
