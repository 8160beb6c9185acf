"""Zip archives with the same bytes for the same files: fixed time stamps, sorted names.

A file is bytes, a memoryview (no copy), or a list of such parts and :class:`Repeat` runs. A
long run of one chunk (a structure's all-``-1`` layer) is deflated once and its compressed bytes
repeated: each copy is a run of complete deflate blocks, so a reader inflates them as one
stream. Archives over 4 GiB or 65535 files use the zip64 records (PKWARE's APPNOTE, sections
4.3 to 4.5; docs/voxels.md cites it and the deflate facts).

Example
-------
>>> import io, zipfile
>>> out = io.BytesIO()
>>> write_zip(out, {"b.txt": b"2", "a.txt": [b"1", Repeat(b"ab", 3)]})
>>> archive = zipfile.ZipFile(out)
>>> archive.namelist(), archive.read("a.txt")
(['a.txt', 'b.txt'], b'1ababab')
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import BinaryIO

ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can say
_DOS_DATE = (ZIP_TIME[0] - 1980) << 9 | ZIP_TIME[1] << 5 | ZIP_TIME[2]
_DOS_TIME = ZIP_TIME[3] << 11 | ZIP_TIME[4] << 5 | ZIP_TIME[5] // 2
_STORED, _DEFLATED = 0, 8
_UNIX = 3  # "made by" host: Unix, so the mode below is read
_MODE = 0o100644 << 16  # a regular file, rw-r--r--
_LIMIT = 0xFFFFFFFF  # past this a size or an offset needs zip64
PIECE = 4 << 20  # a large part is deflated in pieces of this size on threads (write_zip's threads)


def zip_entry(name: str, stored: bool = False) -> zipfile.ZipInfo:
    """A member header for :mod:`zipfile`, where a writer streams its members itself (a world's
    region files, an npz's arrays): the fixed time and the Unix file mode :func:`write_zip`
    writes, deflated (or ``stored`` as it is).

    >>> entry = zip_entry("a.txt", stored=True)
    >>> entry.date_time, entry.compress_type == zipfile.ZIP_STORED, oct(entry.external_attr >> 16)
    ((1980, 1, 1, 0, 0, 0), True, '0o100644')
    """
    info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
    info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    info.create_system = _UNIX
    info.external_attr = _MODE
    return info


@dataclass(frozen=True)
class Repeat:
    """``data`` written ``count`` times, deflated once.

    >>> Repeat(b"ab", 3).size
    6
    """

    data: bytes
    count: int

    @property
    def size(self) -> int:
        return len(self.data) * self.count


Bytes = bytes | bytearray | memoryview
Part = Bytes | Repeat


def write_parts(file: BinaryIO, parts: Iterable[Part]) -> None:
    """Write parts to ``file`` uncompressed, a repeated chunk copy by copy (no large buffer)."""
    for part in parts:
        if isinstance(part, Repeat):
            for _ in range(part.count):
                file.write(part.data)
        else:
            file.write(part)


def _pieces(data: Bytes, level: int, threads: int) -> list[bytes]:
    """``data`` deflated in pieces of ``PIECE`` bytes, each by a fresh compressor ended by a full
    flush (so any piece may follow any other), on ``threads`` threads."""
    view = memoryview(data).cast("B")

    def piece(at: int) -> bytes:
        alone = zlib.compressobj(level, zlib.DEFLATED, -15)
        return alone.compress(view[at:at + PIECE]) + alone.flush(zlib.Z_FULL_FLUSH)

    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(piece, range(0, len(view), PIECE)))


def _deflate(parts: Iterable[Part], level: int, threads: int = 1) -> tuple[list[bytes], int, int]:
    """Raw deflate chunks of ``parts``, their CRC-32 and uncompressed size; a part of two
    ``PIECE`` or more deflated in pieces on ``threads`` threads when more than one."""
    out: list[bytes] = []
    crc = size = 0
    stream = zlib.compressobj(level, zlib.DEFLATED, -15)
    for part in parts:
        if not isinstance(part, Repeat) and threads > 1 and len(part) >= 2 * PIECE:
            out.append(stream.flush(zlib.Z_FULL_FLUSH))  # byte-aligned, nothing refers back past it
            out.extend(_pieces(part, level, threads))
            crc, size = zlib.crc32(part, crc), size + len(part)
            continue
        if not isinstance(part, Repeat):
            out.append(stream.compress(part))
            crc, size = zlib.crc32(part, crc), size + len(part)
            continue
        out.append(stream.flush(zlib.Z_FULL_FLUSH))  # byte-aligned, nothing refers back past it
        alone = zlib.compressobj(level, zlib.DEFLATED, -15)
        chunk = alone.compress(part.data) + alone.flush(zlib.Z_FULL_FLUSH)  # no final block
        out.extend([chunk] * part.count)
        for _ in range(part.count):
            crc = zlib.crc32(part.data, crc)
        size += part.size
    out.append(stream.flush())
    return out, crc, size


def _zip64_extra(values: list[int]) -> bytes:
    return struct.pack(f"<HH{len(values)}Q", 1, 8 * len(values), *values) if values else b""


def _store(parts: Iterable[Part]) -> tuple[list[Bytes], int, int]:
    """``parts`` as they are (a stored member), their CRC-32 and size."""
    chunks: list[Bytes] = []
    crc = size = 0
    for part in parts:
        for piece in [part.data] * part.count if isinstance(part, Repeat) else [part]:
            chunks.append(piece)
            crc, size = zlib.crc32(piece, crc), size + len(piece)
    return chunks, crc, size


def write_zip(file: BinaryIO, files: Mapping[str, Part | list[Part] | Callable[[], Part]],
              level: int = 6, stored: Iterable[str] = (), threads: int = 1) -> None:
    """Write ``files`` (name -> bytes, memoryview or list of parts, or a function that gives
    them when that member is written, so large files are read one at a time) as a deflated zip,
    names in order, times fixed; the names in ``stored`` as they are (data compressed already). With
    ``threads`` above 1, a part of 8 MiB or more is deflated in 4 MiB pieces on that many threads
    (zlib holds no GIL), each piece by a fresh compressor ended by a full flush; the bytes are the
    same for any count above 1 (the pieces are cut by size alone).

    >>> import io
    >>> out = io.BytesIO()
    >>> write_zip(out, {"a.gz": b"xyz", "b.txt": b"b"}, stored=["a.gz"])
    >>> [(i.filename, i.compress_type) for i in zipfile.ZipFile(out).infolist()]
    [('a.gz', 0), ('b.txt', 8)]
    """
    central = []
    offset = 0
    stored = set(stored)
    for name in sorted(files):
        entry = files[name]
        value = entry() if callable(entry) else entry  # (read when written)
        parts = value if isinstance(value, list) else [value]
        method = _STORED if name in stored else _DEFLATED
        chunks, crc, size = _store(parts) if method == _STORED else _deflate(parts, level, threads)
        compressed = sum(map(len, chunks))
        encoded = name.encode("utf-8")
        big = size >= _LIMIT or compressed >= _LIMIT
        version = 45 if big or offset >= _LIMIT else 20
        local_extra = _zip64_extra([size, compressed] if big else [])
        sizes = (_LIMIT, _LIMIT) if big else (compressed, size)
        flags = 0 if encoded.isascii() else 0x800  # bit 11: the name is UTF-8
        file.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, version, flags, method, _DOS_TIME,
                               _DOS_DATE, crc, *sizes, len(encoded), len(local_extra)))
        file.write(encoded + local_extra)
        for chunk in chunks:
            file.write(chunk)
        central.append((encoded, version, flags, method, crc, size, compressed, offset))
        offset += 30 + len(encoded) + len(local_extra) + compressed
    start = offset
    for encoded, version, flags, method, crc, size, compressed, at in central:
        wide = [v for v in (size, compressed, at) if v >= _LIMIT]
        extra = _zip64_extra(wide)
        record = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, _UNIX << 8 | version, version, flags,
                             method, _DOS_TIME, _DOS_DATE, crc, min(compressed, _LIMIT),
                             min(size, _LIMIT), len(encoded), len(extra), 0, 0, 0, _MODE,
                             min(at, _LIMIT))
        file.write(record + encoded + extra)
        offset += len(record) + len(encoded) + len(extra)
    count, length = len(central), offset - start
    if count >= 0xFFFF or start >= _LIMIT or length >= _LIMIT:
        file.write(struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, _UNIX << 8 | 45, 45, 0, 0, count, count,
                               length, start))
        file.write(struct.pack("<IIQI", 0x07064B50, 0, offset, 1))
    file.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, min(count, 0xFFFF), min(count, 0xFFFF),
                           min(length, _LIMIT), min(start, _LIMIT), 0))
