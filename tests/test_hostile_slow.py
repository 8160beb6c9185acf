"""Files small enough for every byte and inflate limit that are still slow to read: each family
is refused at the per-file time bound (``BLOCKMAZE_INFO_SECONDS``), with exit 1 and one line,
instead of running for minutes.

The bound is set to 0.5 s here; a refusal must come within 2 s of work (this process's CPU time,
which other processes on a busy machine do not stretch) of the read's start.
"""

from __future__ import annotations

import gzip
import os
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

import blockmaze as bm
from blockmaze.errors import BadFileError
from blockmaze.readers.worldinfo import summarize_world
from blockmaze.readers.info import inspect_file
from blockmaze.readers.timebound import check_time, info_seconds, time_bound

ROOT = Path(__file__).resolve().parent.parent
BOUND = "0.5"
SAYS = "took more than 0.5 s"


def _name(text: str) -> bytes:
    return struct.pack(">H", len(text)) + text.encode()


def slow_chunk(lists: int) -> bytes:
    """A chunk's NBT with the fields info uses and a List of ``lists`` empty Lists: each a Python
    value to parse, five bytes each (they zip to almost nothing)."""
    return (b"\x0a" + _name("") + b"\x03" + _name("xPos") + struct.pack(">i", 0)
            + b"\x03" + _name("zPos") + struct.pack(">i", 0)
            + b"\x09" + _name("sections") + b"\x00" + struct.pack(">i", 0)
            + b"\x09" + _name("junk") + b"\x09" + struct.pack(">i", lists) + bytes(5 * lists)
            + b"\x00")


def slow_region(path: Path) -> None:
    """A region whose 1,024 slots each hold a chunk of 120,000 tiny values (about 200 kB on
    disk; parsed in Python they take minutes)."""
    packed = zlib.compress(slow_chunk(120_000), 9)
    sectors = -(-(len(packed) + 5) // 4096)
    header, body = bytearray(8192), bytearray()
    for slot in range(1024):
        header[4 * slot:4 * slot + 4] = struct.pack(">I", ((2 + slot * sectors) << 8) | sectors)
        chunk = struct.pack(">IB", len(packed) + 1, 2) + packed
        body += chunk + bytes(sectors * 4096 - len(chunk))
    path.write_bytes(bytes(header + body))


def slow_vox(path: Path, chunks: int = 1_500_000) -> None:
    """A MagicaVoxel file of ``chunks`` empty chunks (18 MB), each one step of the reader's loop."""
    path.write_bytes(b"VOX " + struct.pack("<i", 150) + b"MAIN" + struct.pack("<ii", 0, 12 * chunks)
                     + (b"nOPE" + bytes(8)) * chunks)


def slow_nbt(path: Path, size: int = 200 << 20) -> None:
    """A structure file whose ByteArray inflates to ``size`` bytes (200 MiB: 200 kB gzipped),
    tallied as it streams."""
    raw = b"\x0a" + _name("") + b"\x07" + _name("blocks") + struct.pack(">i", size)
    with gzip.open(path, "wb", compresslevel=1) as out:
        out.write(raw)
        zeros = bytes(1 << 20)
        for _ in range(size >> 20):
            out.write(zeros)
        out.write(b"\x00")


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    from blockmaze.export.minecraft.world import write_world

    folder = tmp_path_factory.mktemp("slow") / "World"
    write_world(bm.extrude(bm.to_blocks(bm.generate((3, 4), rng=2))), folder, bm.load_theme(),
                terrain="void", y=0)
    region = next((folder / "region").glob("r.*.mca"))
    slow_region(region)
    return folder


@pytest.fixture(scope="module")
def vox(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("slow") / "m.vox"
    slow_vox(path)
    return path


@pytest.fixture(scope="module")
def nbt(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("slow") / "m.nbt"
    slow_nbt(path.with_name("small.nbt"), 5 << 20)  # a first read loads and compiles the tally
    with pytest.raises(BadFileError, match="not one of the formats"):  # (the bound counts that)
        inspect_file(path.with_name("small.nbt"))
    slow_nbt(path)
    return path


def info_cli(path: Path) -> tuple[int, list[str]]:
    result = subprocess.run([sys.executable, "-m", "blockmaze", "info", str(path)],
                            capture_output=True, text=True, timeout=120,
                            env=dict(os.environ, PYTHONPATH=str(ROOT), BLOCKMAZE_INFO_SECONDS=BOUND))
    return result.returncode, result.stderr.strip().splitlines()


@pytest.mark.slow
@pytest.mark.parametrize("family", ["world", "vox", "nbt"])
def test_a_slow_file_is_refused_at_the_time_bound(family, request, monkeypatch):
    path = request.getfixturevalue(family)
    read = summarize_world if family == "world" else inspect_file
    monkeypatch.setenv("BLOCKMAZE_INFO_SECONDS", BOUND)
    began = time.process_time()  # the work done, which a loaded machine does not stretch
    with pytest.raises(BadFileError, match=SAYS):
        read(path)
    assert time.process_time() - began < 2.0  # the bound (0.5 s) and one piece of work past it
    code, err = info_cli(path)
    assert code == 1 and len(err) == 1 and err[0].startswith("Error: "), err
    assert SAYS in err[0] and str(path.name) in err[0], err


def test_the_time_bound_is_a_setting_and_belongs_to_one_file(monkeypatch):
    monkeypatch.setenv("BLOCKMAZE_INFO_SECONDS", "2.5")
    assert info_seconds() == 2.5
    for bad in ("0", "-1", "nan", "inf", "soon"):
        monkeypatch.setenv("BLOCKMAZE_INFO_SECONDS", bad)
        with pytest.raises(bm.BlockmazeError, match="BLOCKMAZE_INFO_SECONDS"):
            info_seconds()
    check_time()  # outside any file's bound: nothing to check
    with time_bound("a.nbt", seconds=0.0):
        with time_bound("inner", seconds=100.0):  # a region inside a world: the world's bound holds
            with pytest.raises(BadFileError, match="^a.nbt: "):
                check_time()
    check_time()  # the bound ended with its file
