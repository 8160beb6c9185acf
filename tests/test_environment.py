"""A hostile environment ends a run in one line with nothing half-written: standard output
closed, an address-space limit too small to start, a file-size limit (tests/test_plan.py has the
Bedrock world's)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

RUN = "import sys; from blockmaze.cli import main; sys.exit(main(sys.argv[1:]))"


def _run(args, tmp_path, before: str = "", **kwargs):
    return subprocess.run([sys.executable, "-c", before + RUN, *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, **kwargs)


@pytest.mark.parametrize("args", [["generate", "3", "--seed", "1"],
                                  ["generate", "3", "--seed", "1", "-o", "-", "--format", "svg"],
                                  ["dungeon", "6x8", "--seed", "1"]])
def test_standard_output_closed_is_one_line(args, tmp_path):
    done = _run(args, tmp_path, stdin=subprocess.DEVNULL, preexec_fn=lambda: os.close(1))
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[-1] == ("Error: cannot write to standard output: standard "
                                            "output is closed"), done.stderr
    assert "Traceback" not in done.stderr and list(tmp_path.iterdir()) == []


def test_a_file_is_written_with_standard_output_closed(tmp_path):
    done = _run(["generate", "3", "--seed", "1", "-o", "m.schem"], tmp_path,
                preexec_fn=lambda: os.close(1))
    assert done.returncode == 0, done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["m.schem"]


def test_too_small_an_address_space_is_one_line(tmp_path):
    limit = ("import resource; resource.setrlimit(resource.RLIMIT_AS, (100_000_000, "
             "100_000_000)); ")
    done = _run(["generate", "3", "--seed", "1", "-o", "m.glb"], tmp_path, before=limit)
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "ulimit -v" in done.stderr, done.stderr
    assert list(tmp_path.iterdir()) == []


def test_text_from_a_file_is_shown_with_its_control_characters_escaped(tmp_path, capsys):
    """A world named with escape codes and a newline cannot clear or move the terminal: info
    shows them as escapes, and so does an error naming a file."""
    import numpy as np

    from blockmaze.cli import main
    from blockmaze.export import writer_for
    from blockmaze.materials import load_theme

    writer = writer_for(format="world")
    writer.write(iter([np.ones((2, 3, 3), np.uint8)]), tmp_path / "W", load_theme(),
                 name="Evil\x1b[2J\x07Name")
    assert main(["info", str(tmp_path / "W")]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "Evil\\x1b[2J\\x07Name" in out, out
    assert main(["generate", "3", "-o", str(tmp_path / "no" / "a\x1b[31m.schem")]) == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err and "a\\x1b[31m.schem" in err and err.count("\n") == 1, err


FULL_DISK_OUTPUTS = ["maze.schem", "maze.mcworld", "level.tmx", "maze.obj", "maze.png",
                     "maze.glb"]


@pytest.mark.parametrize("output", FULL_DISK_OUTPUTS)
def test_a_full_device_is_one_line(output, tmp_path):
    """Written to /dev/full (every write fails: no space left), each output is one line, exit 1."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    done = _run(["generate", "20x20", "--seed", "1", "-o", "/dev/full", "--format",
                 output.rpartition(".")[2]], tmp_path)
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("Error: ") and "Traceback" not in done.stderr, done.stderr


@pytest.fixture
def small_disk(tmp_path):
    """A 64 KiB file system (tmpfs) at tmp_path/disk, unmounted after the test; skipped where
    this process may not mount one (not root, or a container without the right)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)],
                             capture_output=True, text=True, check=False)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=False)


@pytest.mark.parametrize("output", [*FULL_DISK_OUTPUTS, "World"])
def test_a_full_disk_is_one_line_and_keeps_the_file_there_before(output, small_disk):
    """A disk that fills up midway: one line naming the file and the cause, exit 1, and the disk
    holds what it held before (the earlier maze, byte for byte), no temporary left behind."""
    earlier = small_disk / "earlier.schem"
    assert _run(["generate", "5x5", "--seed", "1", "-o", str(earlier)], small_disk).returncode == 0
    before = earlier.read_bytes()
    target = small_disk / output
    world = [] if "." in output else ["--format", "world"]
    done = _run(["generate", "300x300", "--seed", "1", "-o", str(target), *world], small_disk)
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == [f"Error: cannot write {target}: No space left on device"], \
        done.stderr
    assert sorted(p.name for p in small_disk.iterdir()) == ["earlier.schem"]
    assert earlier.read_bytes() == before
