"""What every ``info`` reader shares: the summary it returns, the byte budget, bounded reads.

Example
-------
>>> FileInfo("PNG picture", details={"pixels": "7 x 5"}).lines()
['format: PNG picture', 'pixels: 7 x 5']
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import BinaryIO

from ..errors import BadFileError

TEXT_SHARE = 32  # whole-file reads (JSON, XML, text maps) get the info limit / TEXT_SHARE bytes


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
        """The summary as text lines."""
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
            width = max(len(name) for name in self.counts)
            for name, count in sorted(self.counts.items(), key=lambda item: (-item[1], item[0])):
                out.append(f"  {name:<{width}}  {count}")
        return out


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
    return archive.open(info)
