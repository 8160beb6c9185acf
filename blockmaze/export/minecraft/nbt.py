"""Small helpers for writing NBT with nbtlib, shared by the Minecraft writers."""

from __future__ import annotations

import gzip
from typing import BinaryIO

import nbtlib
import numpy as np

from ...errors import BlockmazeError


def unsigned_short(value: int) -> nbtlib.Short:
    """A Short tag holding 0..65535 the way Java reads it back with ``& 0xFFFF``.

    >>> int(unsigned_short(40000))
    -25536
    """
    if not 0 <= value <= 0xFFFF:
        raise BlockmazeError(f"{value} does not fit an unsigned Short (0..65535)")
    return nbtlib.Short(value - 0x10000 if value > 0x7FFF else value)


def byte_array(data: np.ndarray) -> nbtlib.ByteArray:
    """A ByteArray tag over the bytes of a uint8 array (no copy of the values through Python).

    >>> byte_array(np.array([1, 200], dtype=np.uint8)).tolist()
    [1, -56]
    """
    return nbtlib.ByteArray(np.ascontiguousarray(data, dtype=np.uint8).view(np.int8))


GZIP_LEVEL = 4


def gzip_stream(file: BinaryIO, level: int = GZIP_LEVEL) -> gzip.GzipFile:
    """A gzip stream into ``file`` whose bytes depend only on what is written: no time stamp
    (mtime 0), no file name. Level 4: on a 1000x1000 maze (16 M blocks) it is 4x faster than
    the default level 6 for a file 8% larger."""
    return gzip.GzipFile(fileobj=file, mode="wb", mtime=0, filename="", compresslevel=level)


def write_gzipped(root: nbtlib.Compound, file: BinaryIO, root_name: str = "") -> None:
    """Write ``root`` as a gzipped big-endian NBT file, byte-identical for identical input."""
    with gzip_stream(file) as stream:
        nbtlib.File(root, root_name=root_name).write(stream)
