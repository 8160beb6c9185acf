"""What every ``info`` reader shares: the summary it returns, the byte budget, bounded reads.

Example
-------
>>> FileInfo("PNG picture", details={"pixels": "7 x 5"}).lines()
['format: PNG picture', 'pixels: 7 x 5']
"""

from __future__ import annotations

import json
import os
import re
import struct
import zipfile
from dataclasses import dataclass, field
from typing import BinaryIO

from ..errors import BadFileError

TEXT_SHARE = 32  # whole-file reads (JSON, XML, text maps) get the info limit / TEXT_SHARE bytes
MAX_ZIP_ENTRIES = 1 << 16  # members a zip's directory may list (a world of 65,536 regions)
MAX_ZIP_DIRECTORY = 1 << 23  # bytes of a zip's central directory (8 MiB)
_ZIP_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA)


_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def printable(text: object) -> str:
    r"""``text`` with every control character escaped (C0, DEL, C1, the line and paragraph
    separators, the bidi embeddings, overrides and isolates): what a file says is shown, never
    obeyed by a terminal. Everything ``info`` prints, lines and errors, passes through here.

    >>> print(printable("a\x1b]0;title\x07b\u202ec\nd"))
    a\x1b]0;title\x07b\u202ec\x0ad
    """
    return _UNPRINTABLE.sub(lambda found: (f"\\x{ord(found[0]):02x}" if ord(found[0]) < 256
                                           else f"\\u{ord(found[0]):04x}"), str(text))


@dataclass
class FileInfo:
    """A summary of a file: format, Minecraft version, size (width, height, length) and counts."""

    format: str
    size: tuple[int, int, int] | None = None
    data_version: int | None = None
    counts: dict[str, int] = field(default_factory=dict)
    details: dict[str, object] = field(default_factory=dict)
    unit: str = "blocks"

    def lines(self) -> list[str]:
        """The summary as text lines, each :func:`printable`."""
        out = [f"format: {self.format}"]
        if self.data_version is not None:
            from ..export.minecraft.versions import RELEASES

            names = [r.name for r in RELEASES.values() if r.data_version == self.data_version]
            out.append(f"minecraft: {names[-1] if names else 'unknown release'} (DataVersion {self.data_version})")
        if self.size is not None:
            out.append("size: {} x {} x {} {} (width x height x length)".format(*self.size, self.unit))
        out.extend(f"{key}: {value}" for key, value in self.details.items())
        if self.counts:
            out.append(f"palette: {len(self.counts)} {'block states' if self.unit == 'blocks' else 'kinds'}")
            counts = [(printable(name), count) for name, count in self.counts.items()]
            width = max(len(name) for name, _ in counts)
            for name, count in sorted(counts, key=lambda item: (-item[1], item[0])):
                out.append(f"  {name:<{width}}  {count}")
        return [printable(line) for line in out]


def text_limit() -> int:
    """The most bytes ``info`` reads whole from a text format (JSON, SVG): the inflate limit
    (``BLOCKMAZE_INFO_LIMIT``) / 32, 8 MiB by default."""
    from .nbtread import inflate_limit

    return inflate_limit() // TEXT_SHARE


def read_whole(file: BinaryIO, what: str, limit: int | None = None) -> bytes:
    """All of ``file``, or BadFileError if it holds more than ``limit`` bytes (never reading more)."""
    limit = text_limit() if limit is None else limit
    data = file.read(limit + 1)
    if len(data) > limit:
        raise BadFileError(f"{what} larger than {limit} bytes is more than info reads "
                           "(set BLOCKMAZE_INFO_LIMIT to raise it)")
    return data


def load_json(data: bytes, what: str):
    """Parsed JSON, or BadFileError saying why not (deep nesting included)."""
    try:
        return json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise BadFileError(f"not valid JSON for {what}: {error}") from None
    except RecursionError:
        raise BadFileError(f"JSON nested too deeply for {what}") from None
    except ValueError as error:  # e.g. an integer of more digits than Python converts
        raise BadFileError(f"not usable JSON for {what}: {error}") from None


def need(mapping: object, key: str, kind, where: str = ""):
    """``mapping[key]`` checked to be of ``kind``, else BadFileError naming the key."""
    if not isinstance(mapping, dict) or key not in mapping:
        raise BadFileError(f"{where}{key} is missing")
    value = mapping[key]
    if kind is not None and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))):
        raise BadFileError(f"{where}{key} has the wrong type")
    return value


def file_size(file: BinaryIO) -> int | None:
    """The size of a real file, else None."""
    try:
        return os.fstat(file.fileno()).st_size
    except (AttributeError, OSError, ValueError):
        try:
            here = file.tell()
            end = file.seek(0, 2)
            file.seek(here)
            return end
        except (AttributeError, OSError, ValueError):
            return None


def zip_directory(file: BinaryIO) -> tuple[int, int]:
    """The member count and central-directory size a zip's end record declares (the zip64 one
    when there is one), refused (BadFileError) past :data:`MAX_ZIP_ENTRIES` or
    :data:`MAX_ZIP_DIRECTORY` before zipfile parses, and holds, the whole directory. Reads at
    most the last 64 KiB; leaves ``file`` at its start.

    >>> import io
    >>> zip_directory(io.BytesIO(b"PK\\x05\\x06" + struct.pack("<4H2LH", 0, 0, 1, 40_000, 46_000_000, 0, 0)))
    Traceback (most recent call last):
    ...
    blockmaze.errors.BadFileError: the zip's directory lists 40000 members in 46000000 bytes; info reads at most 65536 members in 8388608 bytes
    """
    size = file.seek(0, 2)
    start = max(size - 22 - 0xFFFF, 0)
    file.seek(start)
    tail = file.read(size - start)
    file.seek(0)
    at = len(tail) - 22 if tail[-22:-18] == b"PK\x05\x06" and tail[-2:] == b"\0\0" else tail.rfind(b"PK\x05\x06")
    if at < 0 or at + 22 > len(tail):
        raise BadFileError("not a zip: no end-of-central-directory record")
    _, _, _, here, entries, directory = struct.unpack_from("<4s4HL", tail, at)
    entries = max(here, entries)
    if at >= 20 and tail[at - 20:at - 16] == b"PK\x06\x07":  # zip64: its record sits before the locator
        record = start + at - 20 - 56
        if record >= 0:
            file.seek(record)
            zip64 = file.read(56)
            file.seek(0)
            if len(zip64) == 56 and zip64[:4] == b"PK\x06\x06":
                here, total, directory = struct.unpack_from("<3Q", zip64, 24)
                entries = max(here, total)
    if entries > MAX_ZIP_ENTRIES or directory > MAX_ZIP_DIRECTORY:
        raise BadFileError(f"the zip's directory lists {entries} members in {directory} bytes; info reads "
                           f"at most {MAX_ZIP_ENTRIES} members in {MAX_ZIP_DIRECTORY} bytes")
    return entries, directory


def open_zip(file: BinaryIO) -> zipfile.ZipFile:
    """``file`` opened as a zip once :func:`zip_directory` has found its directory small enough
    (every zip ``info`` reads is opened here). zipfile's own errors pass through."""
    from .timebound import check_time

    check_time()
    zip_directory(file)
    archive = zipfile.ZipFile(file)
    check_time()
    return archive


class FolderArchive:
    """A Bedrock world's folder read as the zip of it would be: ``level.dat`` and the files of
    ``db/`` as members (what :func:`zip_member` and the LevelDB cage take), each opened once as a
    regular file; a link, or a folder inside ``db/``, is a member the cage refuses.

    >>> import tempfile, pathlib
    >>> world = pathlib.Path(tempfile.mkdtemp())
    >>> (world / "db").mkdir(); _ = (world / "db" / "CURRENT").write_text("MANIFEST-000002\\n")
    >>> _ = (world / "level.dat").write_bytes(bytes(8))
    >>> FolderArchive(world).namelist()
    ['level.dat', 'db/CURRENT']
    """

    def __init__(self, folder: str | os.PathLike):
        from pathlib import Path

        self.folder = Path(folder)

    def infolist(self) -> list[zipfile.ZipInfo]:
        from .timebound import check_time

        found = []
        for path in [self.folder / "level.dat", *sorted((self.folder / "db").iterdir())]:
            check_time()
            name = path.relative_to(self.folder).as_posix()
            if path.is_symlink():  # what a link points to is outside the world
                raise BadFileError(f"{name} is a link; info reads the world's own files")
            found.append(zipfile.ZipInfo.from_file(path, name))
        return found

    def namelist(self) -> list[str]:
        return [info.filename for info in self.infolist()]

    def getinfo(self, name: str) -> zipfile.ZipInfo:
        path = self.folder / name
        if not path.is_file() or path.is_symlink():
            raise KeyError(name)
        return zipfile.ZipInfo.from_file(path, name)

    def open(self, info: zipfile.ZipInfo) -> BinaryIO:
        from ..support.files import open_regular

        return open_regular(self.folder / info.filename, "world file")


def zip_member(archive, name, limit: int | None = None):
    """A zip member opened for reading, refused (BadFileError) when it inflates to more than
    ``limit`` bytes (the inflate limit by default): zipfile never yields more than the size a
    member declares, so the declared size bounds the work. KeyError when it is missing.

    >>> import io, zipfile
    >>> buffer = io.BytesIO()
    >>> with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z: z.writestr("a", b"0" * 5000)
    >>> zip_member(zipfile.ZipFile(buffer), "a", limit=4096)
    Traceback (most recent call last):
    ...
    blockmaze.errors.BadFileError: a inflates to 5000 bytes, more than the 4096 read (set BLOCKMAZE_INFO_LIMIT to raise it)
    """
    from .nbtread import inflate_limit
    from .timebound import check_time

    check_time()
    limit = inflate_limit() if limit is None else limit
    info = name if hasattr(name, "file_size") else archive.getinfo(name)
    if info.file_size > limit:
        raise BadFileError(f"{info.filename} inflates to {info.file_size} bytes, more than the "
                           f"{limit} read (set BLOCKMAZE_INFO_LIMIT to raise it)")
    if info.flag_bits & 0x1:
        raise BadFileError(f"{info.filename} is encrypted; info reads no encrypted member")
    if info.compress_type not in _ZIP_METHODS:
        raise BadFileError(f"{info.filename} is packed with compression method {info.compress_type}, "
                           "which info does not read (stored, deflate, bzip2 or LZMA)")
    try:
        return archive.open(info)
    except (NotImplementedError, RuntimeError, zipfile.BadZipFile, EOFError, OSError) as error:
        raise BadFileError(f"{info.filename} cannot be read: {error}") from None
