"""Writing files: atomic replacement, no partial files, clear errors for unwritable targets."""

import io
import os
import stat

import numpy as np
import pytest

import blockmaze as bm
from blockmaze.export.target import open_target

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
