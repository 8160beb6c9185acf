"""``blockmaze info`` for Bedrock worlds (``.mcworld``): the name and spawn from ``level.dat``,
and, read through Mojang's LevelDB (the bedrock extra), the chunks, their extent (whole chunks
across, the highest column from the world's floor up) and the blocks counted by their states.
Bounded as every reader, and caged (:mod:`.leveldbcage`): the db's files, their names checked
first, are copied into a folder of the read's own, at most the inflate limit, and LevelDB reads
them in a worker process that is ended at the time bound or a stop.

Example
-------
>>> import io
>>> read_mcworld(io.BytesIO(b"PK\\x05\\x06" + bytes(18)))
Traceback (most recent call last):
...
blockmaze.errors.BadFileError: a zip, but not a Bedrock world: no level.dat at its top
"""

from __future__ import annotations

import contextlib
import io
import os
import struct
import zipfile
import zlib
from collections import Counter
from collections.abc import Iterator
from typing import BinaryIO

import numpy as np

from ..errors import BadFileError
from ..export.minecraft.packing import unpack_longs
from .base import FileInfo, FolderArchive, open_zip, zip_member
from .timebound import check_time

LEVEL_DAT_LIMIT = 1 << 20  # a level.dat of our worlds is under 1 KiB
NOT_COUNTED = "not counted (reading db/ needs pip install 'blockmaze[bedrock]')"


def read_mcworld(file: BinaryIO) -> FileInfo:
    """The summary of a Bedrock world zip (see the module docstring)."""
    try:
        archive = open_zip(file)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError) as error:
        raise BadFileError(f"not a readable zip: {error}") from None
    return _summary(archive, "Bedrock world (.mcworld)", "zip")


def read_bedrock_folder(folder: str | os.PathLike) -> FileInfo:
    """The summary of a Bedrock world's folder (``level.dat`` and ``db/``), as of its zip.

    >>> import tempfile
    >>> read_bedrock_folder(tempfile.mkdtemp())
    Traceback (most recent call last):
    ...
    blockmaze.errors.BadFileError: not a Bedrock world folder: no level.dat and db/ in it
    """
    if not (os.path.isfile(os.path.join(folder, "level.dat"))
            and os.path.isdir(os.path.join(folder, "db"))):
        raise BadFileError("not a Bedrock world folder: no level.dat and db/ in it")
    return _summary(FolderArchive(folder), "Bedrock world (folder)", "world folder")


def _summary(archive, kind: str, what: str) -> FileInfo:
    """The summary of a Bedrock world, in a zip or a folder read as one (:class:`FolderArchive`);
    ``what`` it is, for the errors."""
    from .leveldbcage import leveldb_site, records, unpacked
    from .nbtread import inflate_limit

    try:
        names = archive.namelist()
        if "level.dat" not in names:
            raise BadFileError(f"a {what}, but not a Bedrock world: no level.dat at its top")
        with zip_member(archive, "level.dat", LEVEL_DAT_LIMIT) as member:
            level = _level(member.read(LEVEL_DAT_LIMIT + 1))
        site = leveldb_site()
        details: dict = {"blocks": NOT_COUNTED}
        size: tuple[int, int, int] | None = None
        counts: dict[str, int] = {}
        if site is not None:
            with unpacked(archive, inflate_limit()) as db, \
                    contextlib.closing(records(db, site, inflate_limit())) as pairs:
                details, size, counts = _db_summary(pairs)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, zlib.error, OSError,
            NotImplementedError, RuntimeError, KeyError) as error:
        raise BadFileError(f"not a readable {what}: {error}") from None
    return FileInfo(kind, size, None, counts, {**level, **details})


def _level(data: bytes) -> dict:
    """The world's name, generator and spawn from level.dat (its 8-byte header checked)."""
    import nbtlib

    if len(data) < 8:
        raise BadFileError("level.dat is shorter than its 8-byte header")
    version, length = struct.unpack("<ii", data[:8])
    if length != len(data) - 8:
        raise BadFileError(f"level.dat's header says {length} bytes follow, not {len(data) - 8}")
    try:
        root = nbtlib.File.parse(io.BytesIO(data[8:]), byteorder="little")
    except Exception as error:  # nbtlib raises plain exceptions on broken input
        raise BadFileError(f"level.dat is not little-endian NBT: {error}") from None

    def value(key):
        tag = root.get(key)
        if isinstance(tag, nbtlib.String):
            return str(tag)
        return str(int(tag)) if isinstance(tag, (nbtlib.Int, nbtlib.Long, nbtlib.Byte)) else None

    spawn = [value(k) for k in ("SpawnX", "SpawnY", "SpawnZ")]
    return {"name": value("LevelName"), "storage version": version,
            "generator": {"2": "flat", "1": "infinite", "0": "old"}.get(value("Generator") or "", value("Generator")),
            "spawn": ", ".join(v or "?" for v in spawn)}


def _db_summary(pairs: Iterator[tuple[bytes, bytes]]) -> tuple[dict, tuple[int, int, int] | None, dict]:
    """Chunks, sub-chunks and block counts of the world's LevelDB records."""
    chunks: set[tuple[int, int]] = set()
    ys: list[int] = []
    counts: Counter = Counter()
    palettes: dict[bytes, list[str]] = {}
    top = 0
    for key, value in pairs:
        check_time()
        if len(key) not in (9, 10):
            continue
        cx, cz = struct.unpack("<ii", key[:8])
        chunks.add((cx, cz))
        if key[8:9] == b"+" and len(value) >= 512:  # heights above the world's floor
            top = max(top, int(np.frombuffer(value, "<i2", 256).max()))
        if key[8:9] == b"/" and len(key) == 10:
            cy = struct.unpack("b", key[9:10])[0]
            ys.append(cy)
            counts.update(_subchunk_counts(value, palettes))
    counts.pop("minecraft:air", None)
    if not chunks:
        return {"chunks": 0}, None, dict(counts)
    xs, zs = [c[0] for c in chunks], [c[1] for c in chunks]
    size = (16 * (max(xs) - min(xs) + 1), top, 16 * (max(zs) - min(zs) + 1))
    return {"chunks": len(chunks), "sub-chunks": len(ys)}, size, dict(counts)


def _subchunk_counts(value: bytes, palettes: dict) -> Counter:
    """The blocks of one sub-chunk (format 8 or 9, first storage layer) counted by name
    (``palettes``: the names of palettes read already, by their bytes)."""
    import nbtlib

    if len(value) < 4 or value[0] not in (8, 9):
        raise BadFileError(f"a sub-chunk of format {value[:1].hex() or 'nothing'}; blockmaze "
                           "reads formats 8 and 9")
    at = 3 if value[0] == 9 else 2
    bits = value[at] >> 1
    if bits not in (1, 2, 3, 4, 5, 6, 8, 16):
        raise BadFileError(f"a sub-chunk with {bits}-bit indices")
    per_word = 32 // bits
    words = -(-4096 // per_word)
    start = at + 1
    if len(value) < start + 4 * words + 4:
        raise BadFileError("a sub-chunk shorter than its indices")
    indices = unpack_longs(np.frombuffer(value, "<u4", words, start), bits, 4096, word=32)
    count = struct.unpack("<i", value[start + 4 * words:start + 4 * words + 4])[0]
    if not 0 < count <= 4096 or int(indices.max()) >= count:
        raise BadFileError(f"a sub-chunk's palette of {count} entries does not cover its indices")
    raw = value[start + 4 * words + 4:]
    names = palettes.get(raw)
    if names is None:
        stream, names = io.BytesIO(raw), []
        for _ in range(count):
            try:
                entry = nbtlib.File.parse(stream, byteorder="little")
                names.append(str(entry["name"]))
            except Exception as error:  # nbtlib raises plain exceptions on broken input
                raise BadFileError(f"a sub-chunk's palette is not little-endian NBT: {error}") from None
        palettes[raw] = names
    tally = np.bincount(indices, minlength=count)
    found: Counter = Counter()
    for name, n in zip(names, tally.tolist(), strict=True):
        found[name] += n
    return found
