"""Writing files: atomic replacement, no partial files, clear errors for unwritable targets;
symlinks, devices, FIFOs, read-only files, standard output; several files all or nothing."""

import dataclasses
import functools
import io
import os
import stat
import sys
import threading

import numpy as np
import pytest

import blockmaze as bm
from blockmaze.export import WRITERS
from blockmaze.export.target import STDOUT, open_target, transaction, write_sidecar

VOLUME = bm.extrude(bm.to_blocks(bm.generate((3, 3), rng=0)))


def test_failure_midway_leaves_no_file_and_keeps_the_old_one(tmp_path):
    target = tmp_path / "maze.schem"
    target.write_bytes(b"precious")
    with pytest.raises(RuntimeError):
        with open_target(target) as file:
            file.write(b"half a schem")
            raise RuntimeError("crash while writing")
    assert target.read_bytes() == b"precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["maze.schem"]


def test_success_replaces_and_keeps_mode(tmp_path):
    target = tmp_path / "maze.schem"
    target.write_bytes(b"old")
    os.chmod(target, 0o640)
    bm.write(VOLUME, target)
    assert target.read_bytes()[:2] == b"\x1f\x8b"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["maze.schem"]


def test_new_file_gets_umask_mode(tmp_path):
    umask = os.umask(0o022)
    try:
        bm.write(VOLUME, tmp_path / "new.schem")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "new.schem").stat().st_mode) == 0o644


@pytest.mark.parametrize("make_target, match", [
    (lambda tmp: tmp / "missing" / "m.schem", "does not exist"),
    (lambda tmp: tmp, "it is a folder"),
])
def test_unwritable_targets(tmp_path, make_target, match):
    with pytest.raises(bm.BlockmazeError, match=match):
        bm.write(VOLUME, make_target(tmp_path), format="schem")


def test_binary_file_objects_are_written_directly():
    out = io.BytesIO()
    bm.write(VOLUME, out, format="schem")
    assert out.getvalue()[:2] == b"\x1f\x8b"


def test_writer_registry_errors():
    with pytest.raises(bm.BlockmazeError, match="cannot tell the format of 'm.xyz'"):
        bm.writer_for("m.xyz")
    with pytest.raises(bm.BlockmazeError, match="unknown format .bmp."):
        bm.writer_for(format="bmp")
    with pytest.raises(bm.BlockmazeError, match="schem does not take height"):
        bm.write(VOLUME, io.BytesIO(), format="schem", height=3)
    with pytest.raises(bm.BlockmazeError, match="uint8 array"):
        bm.write(VOLUME.astype(np.int64), io.BytesIO(), format="schem")
    with pytest.raises(bm.BlockmazeError, match="too large for .schem"):
        bm.write(np.zeros((1, 1, 70_000), np.uint8), io.BytesIO(), format="schem")


def _names(folder):
    return sorted(p.name for p in folder.iterdir())


def test_a_symlink_is_followed_and_stays_a_link(tmp_path):
    real = tmp_path / "real.schem"
    real.write_bytes(b"old")
    os.chmod(real, 0o600)
    link = tmp_path / "link.schem"
    link.symlink_to(real.name)
    bm.write(VOLUME, link)
    assert link.is_symlink() and os.readlink(link) == "real.schem"
    assert real.read_bytes()[:2] == b"\x1f\x8b"
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
    assert _names(tmp_path) == ["link.schem", "real.schem"]


def test_a_dangling_symlink_creates_its_target(tmp_path):
    (tmp_path / "link.schem").symlink_to("made.schem")
    bm.write(VOLUME, tmp_path / "link.schem")
    assert (tmp_path / "made.schem").read_bytes()[:2] == b"\x1f\x8b"


def test_a_character_device_is_written_in_place():
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    bm.write(VOLUME, "/dev/null", format="schem")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)  # still the device, not a regular file


def test_dev_full_is_a_clean_error():
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    with pytest.raises(bm.BlockmazeError, match="cannot write /dev/full: No space left"):
        bm.write(VOLUME, "/dev/full", format="schem")


def test_a_fifo_is_written_in_place(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    bm.write(VOLUME, fifo, format="schem")
    reader.join(10)
    assert received and received[0][:2] == b"\x1f\x8b"
    assert stat.S_ISFIFO(fifo.stat().st_mode) and _names(tmp_path) == ["pipe"]


def test_a_socket_is_refused(tmp_path):
    import socket

    path = tmp_path / "s.sock"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        with pytest.raises(bm.BlockmazeError, match="it is a socket"):
            bm.write(VOLUME, path, format="schem")


def test_a_read_only_file_is_refused_and_kept(tmp_path):
    target = tmp_path / "m.schem"
    target.write_bytes(b"precious")
    os.chmod(target, 0o444)
    with pytest.raises(bm.BlockmazeError, match="read-only"):
        bm.write(VOLUME, target)
    assert target.read_bytes() == b"precious" and _names(tmp_path) == ["m.schem"]


def test_several_files_are_all_or_nothing(tmp_path):
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_bytes(b"old")
    with pytest.raises(RuntimeError):
        with transaction():
            with open_target(tmp_path / "a.txt") as f:
                f.write(b"new")
            write_sidecar(tmp_path, "b.txt", b"new")
            write_sidecar(tmp_path, "c.txt", b"new")
            raise RuntimeError("the last file failed")
    assert _names(tmp_path) == ["a.txt", "b.txt"]
    assert {(tmp_path / n).read_bytes() for n in ("a.txt", "b.txt")} == {b"old"}
    with transaction():
        with open_target(tmp_path / "a.txt") as f:
            f.write(b"new")
        write_sidecar(tmp_path, "c.txt", b"new")
    assert _names(tmp_path) == ["a.txt", "b.txt", "c.txt"]
    assert (tmp_path / "a.txt").read_bytes() == (tmp_path / "c.txt").read_bytes() == b"new"


@pytest.mark.parametrize("name", ["m.obj", "m.tmx", "m.tmj"])
def test_companion_files_are_all_or_nothing(tmp_path, monkeypatch, name):
    """A writer that fails after its companion files were staged leaves none of them behind."""
    plan = bm.to_blocks(bm.generate((3, 3), rng=0))
    data = VOLUME if name == "m.obj" else plan
    bm.write(data, tmp_path / name)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert len(before) >= 2  # the main file and its companions
    writer = bm.writer_for(name)
    real = writer.write

    @functools.wraps(real)
    def failing(*args, **kwargs):
        real(*args, **kwargs)
        raise OSError(28, "No space left on device")

    monkeypatch.setitem(WRITERS.loaded, writer.name, dataclasses.replace(writer, write=failing))
    with pytest.raises(bm.BlockmazeError, match="No space left"):
        bm.write(data, tmp_path / name, theme="glass")
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_standard_output_gets_single_file_formats(capfdbinary):
    bm.write(VOLUME, STDOUT, format="schem")
    assert capfdbinary.readouterr().out[:2] == b"\x1f\x8b"
    with pytest.raises(bm.BlockmazeError, match=r"also writes a .mtl file beside it"):
        bm.write(VOLUME, STDOUT, format="obj")
    with pytest.raises(bm.BlockmazeError, match=r"also writes a .png file beside it"):
        bm.write(VOLUME[1], STDOUT, format="tmx")
    assert capfdbinary.readouterr().out == b""


def test_binary_output_to_a_terminal_is_refused(monkeypatch, capsys):
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    with pytest.raises(bm.BlockmazeError, match="binary and standard output is a terminal"):
        bm.write(VOLUME, STDOUT, format="schem")
    bm.write(VOLUME[1], STDOUT, format="ascii")  # text is fine
    assert capsys.readouterr().out.startswith("; blockmaze ascii map")
