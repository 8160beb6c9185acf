"""``blockmaze info`` on a Bedrock world's folder (as the game keeps it, and as --into edits it):
the same summary as of its .mcworld, and its files held to the same rules as the zip's members."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import blockmaze as bm
from blockmaze.errors import BadFileError
from blockmaze.readers.worldinfo import summarize_world

pytest.importorskip("leveldb")  # the bedrock extra, in the test extra


@pytest.fixture
def world(tmp_path) -> tuple[Path, Path]:
    """A .mcworld and its folder."""
    packed = tmp_path / "m.mcworld"
    bm.save(bm.to_blocks(bm.generate((6, 7), rng=3)), packed)
    folder = tmp_path / "m"
    with zipfile.ZipFile(packed) as archive:
        archive.extractall(folder)
    return packed, folder


def info(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "blockmaze", "info", str(path)],
                          capture_output=True, text=True, timeout=120)


def test_a_folder_reads_as_its_mcworld(world):
    packed, folder = world
    of_zip, of_folder = info(packed), info(folder)
    assert of_zip.returncode == 0 and of_folder.returncode == 0, of_folder.stderr
    zipped, unzipped = of_zip.stdout.splitlines(), of_folder.stdout.splitlines()
    assert zipped[0] == "format: Bedrock world (.mcworld)"
    assert unzipped[0] == "format: Bedrock world (folder)"
    assert zipped[1:] == unzipped[1:] and any(line.startswith("chunks: ") for line in unzipped)


def test_a_link_or_a_folder_in_db_is_refused_in_one_line(world, tmp_path):
    _, folder = world
    outside = tmp_path / "secret"
    outside.write_bytes(b"x")
    os.symlink(outside, folder / "db" / "000099.ldb")
    with pytest.raises(BadFileError, match=r"db/000099.ldb is a link"):
        summarize_world(folder)
    (folder / "db" / "000099.ldb").unlink()
    (folder / "db" / "sub").mkdir()
    done = info(folder)
    assert done.returncode == 1 and len(done.stderr.splitlines()) == 1, done.stderr
    assert "not a file LevelDB makes" in done.stderr
