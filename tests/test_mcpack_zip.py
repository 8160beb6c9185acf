"""The deterministic zip writer behind .mcpack and the datapack: read back by Python's zipfile,
Info-ZIP's unzip and Java's java.util.zip (what the Java edition reads datapacks with), repeated
runs deflated once, zip64 records past 4 GiB and 65535 files."""

from __future__ import annotations

import io
import subprocess
import zipfile
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import readers
from blockmaze.export.zipped import PIECE, Repeat, write_parts, write_zip

JAVA_READER = Path(__file__).with_name("external") / "ZipCheck.java"

parts = st.lists(st.one_of(st.binary(max_size=3000),
                           st.builds(Repeat, st.binary(min_size=1, max_size=300), st.integers(0, 40))),
                 max_size=6)


def expand(value) -> bytes:
    out = io.BytesIO()
    write_parts(out, value if isinstance(value, list) else [value])
    return out.getvalue()


@settings(max_examples=40, deadline=None)
@given(files=st.dictionaries(st.text(st.characters(codec="utf-8", exclude_characters="/\\\0"),
                                     min_size=1, max_size=12),
                             st.one_of(st.binary(max_size=2000), parts), max_size=5),
       level=st.sampled_from([1, 6, 9]), data=st.data())
def test_zipfile_reads_every_file_back(files, level, data):
    out = io.BytesIO()
    stored = data.draw(st.sets(st.sampled_from(sorted(files))) if files else st.just(set()))
    write_zip(out, files, level=level, stored=stored)  # (stored: as they are, for compressed data)
    archive = zipfile.ZipFile(out)
    assert {i.filename for i in archive.infolist() if i.compress_type == zipfile.ZIP_STORED} == stored
    assert archive.testzip() is None
    assert archive.namelist() == sorted(files)
    for info in archive.infolist():
        assert archive.read(info) == expand(files[info.filename])
        assert info.date_time == (1980, 1, 1, 0, 0, 0) and info.external_attr >> 16 == 0o100644


def test_a_repeated_run_costs_one_chunk():
    chunk = b"\xff" * (1 << 20)
    once, many = io.BytesIO(), io.BytesIO()
    write_zip(once, {"a": [b"head", Repeat(chunk, 1), b"tail"]}, level=1)
    write_zip(many, {"a": [b"head", Repeat(chunk, 64), b"tail"]}, level=1)
    assert len(many.getvalue()) - len(once.getvalue()) < 64 * 5000  # ~4.6 kB a MiB of 0xFF
    assert zipfile.ZipFile(many).read("a") == b"head" + chunk * 64 + b"tail"


def test_a_large_part_deflated_on_threads_reads_back_and_is_the_same_on_any_count():
    """A part of two pieces or more (PIECE bytes each) is deflated piece by piece on threads:
    the member inflates to the part (between other parts and a repeated run), unzip's CRC holds,
    and the bytes depend on no thread count above one."""
    rng = np.random.default_rng(3)
    big = rng.integers(0, 4, 2 * PIECE + 12345).astype(np.uint8).tobytes()  # (compressible)
    files = {"a": [b"head", big, Repeat(b"xy", 5000), memoryview(big)[:PIECE + 1], b"tail"], "b": b"b"}
    zips = []
    for threads in (1, 2, 3):
        out = io.BytesIO()
        write_zip(out, files, level=2, threads=threads)
        archive = zipfile.ZipFile(out)
        assert archive.testzip() is None and archive.read("a") == expand(files["a"])
        zips.append(out.getvalue())
    assert zips[1] == zips[2] and zips[0] != zips[1]


FILES = {"data/x.bin": [b"1" * 10, Repeat(b"ab", 700000), b"2"], "\u00e9.txt": b"utf-8 name",
         "pack.mcmeta": b"{}", "empty": b""}


@pytest.mark.reader
def test_unzip_tests_an_archive(tmp_path):
    unzip = readers.program("unzip", "Debian package unzip")
    path = tmp_path / "x.zip"
    with open(path, "wb") as file:
        write_zip(file, FILES, stored=["pack.mcmeta", "data/x.bin"])
    result = subprocess.run([unzip, "-t", str(path)], capture_output=True, text=True)
    assert result.returncode == 0 and "No errors detected" in result.stdout, result.stdout


@pytest.mark.slow
@pytest.mark.reader
def test_java_reads_every_entry_by_both_directories(tmp_path):
    java = readers.program("java", "Debian package default-jdk-headless")
    path = tmp_path / "x.zip"
    with open(path, "wb") as file:
        write_zip(file, FILES, level=3, stored=["empty", "data/x.bin"])
    result = subprocess.run([java, str(JAVA_READER), str(path)], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    want = {f"{name}\t{len(expand(value))}\t{zlib.crc32(expand(value))}" for name, value in FILES.items()}
    for directory in ("central", "local"):
        found = [line.split("\t", 1)[1] for line in result.stdout.splitlines() if line.startswith(directory)]
        assert sorted(found) == sorted(want) and [f.split("\t")[0] for f in found] == sorted(FILES)


@pytest.mark.slow
def test_more_than_65535_files_use_the_zip64_end_record():
    out = io.BytesIO()
    write_zip(out, {f"{i:05}": b"" for i in range(70000)}, level=1)
    assert b"PK\x06\x06" in out.getvalue()[-200:]
    names = zipfile.ZipFile(out).namelist()
    assert len(names) == 70000 and names[-1] == "69999"


@pytest.mark.slow
def test_a_file_over_4_gib_uses_zip64_sizes():
    size = (1 << 32) + (1 << 20)
    out = io.BytesIO()
    write_zip(out, {"big": [Repeat(b"\0" * (1 << 20), size >> 20), b"end"], "small": b"x"}, level=1)
    assert len(out.getvalue()) < 4097 * 5000  # ~4.6 kB a MiB of zeros
    archive = zipfile.ZipFile(out)
    info = archive.getinfo("big")
    assert info.file_size == size + 3 and archive.read("small") == b"x"
    with archive.open(info) as stream:  # inflates it all: the CRC is checked at the end
        stream.seek(size - 5)
        assert stream.read() == b"\0" * 5 + b"end"
