"""A small, strict NBT reader for inspecting files: every length is checked against the bytes
left, nesting is limited, and gzip is inflated with a size cap, so a truncated or hostile file
raises a clear error instead of crashing, hanging or eating memory.

Values come back as Python values: dict (Compound), list (List), str, int, float, and numpy
arrays for the array tags.
"""

from __future__ import annotations

import gzip  # noqa: F401 (the docstring examples use it)
import struct
import zlib

import numpy as np

from ...errors import BlockmazeError

MAX_DEPTH = 512  # Minecraft's own limit
MAX_INFLATED = 1 << 31
GZIP_MAGIC = b"\x1f\x8b"

_SCALARS = {1: ("b", 1), 2: ("h", 2), 3: ("i", 4), 4: ("q", 8), 5: ("f", 4), 6: ("d", 8)}
_ARRAYS = {7: ("i1", 1), 11: ("i4", 4), 12: ("i8", 8)}


class NbtError(BlockmazeError):
    """The bytes are not well-formed NBT."""


def inflate(data: bytes, limit: int = MAX_INFLATED) -> bytes:
    """Gunzip ``data`` (all members), refusing to produce more than ``limit`` bytes.

    >>> inflate(gzip.compress(b"maze"))
    b'maze'
    """
    out = bytearray()
    while data:
        stream = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            out += stream.decompress(data, limit - len(out) + 1)
        except zlib.error as error:
            raise NbtError(f"damaged gzip data: {error}") from None
        if len(out) > limit:
            raise NbtError(f"gzip data inflates to more than {limit} bytes")
        if not stream.eof:
            raise NbtError("gzip data is truncated")
        data = stream.unused_data
        if data and not data.startswith(GZIP_MAGIC):
            break
    return bytes(out)


class _Reader:
    def __init__(self, data: bytes, little: bool):
        self.data = memoryview(data)
        self.pos = 0
        self.order = "<" if little else ">"

    def take(self, size: int) -> memoryview:
        if size < 0 or self.pos + size > len(self.data):
            raise NbtError(f"truncated NBT: {size} bytes needed at offset {self.pos}, "
                           f"{len(self.data) - self.pos} left")
        chunk = self.data[self.pos:self.pos + size]
        self.pos += size
        return chunk

    def number(self, code: str, size: int):
        return struct.unpack(self.order + code, self.take(size))[0]

    def string(self) -> str:
        length = self.number("H", 2)
        raw = bytes(self.take(length))
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return raw.decode("utf-8", "replace")  # modified UTF-8 oddities: keep going

    def count(self, item_size: int) -> int:
        n = self.number("i", 4)
        if n < 0 or n * item_size > len(self.data) - self.pos:
            raise NbtError(f"an NBT length of {n} at offset {self.pos} exceeds the file")
        return n

    def payload(self, tag: int, depth: int):
        if depth > MAX_DEPTH:
            raise NbtError(f"NBT nested deeper than {MAX_DEPTH}")
        if tag in _SCALARS:
            return self.number(*_SCALARS[tag])
        if tag in _ARRAYS:
            kind, size = _ARRAYS[tag]
            n = self.count(size)
            return np.frombuffer(self.take(n * size), dtype=np.dtype(kind).newbyteorder(self.order))
        if tag == 8:
            return self.string()
        if tag == 9:
            item = self.number("b", 1)
            n = self.count(1 if item else 0)
            if item == 0:
                return []
            return [self.payload(item, depth + 1) for _ in range(n)]
        if tag == 10:
            compound = {}
            while True:
                inner = self.number("b", 1)
                if inner == 0:
                    return compound
                name = self.string()
                compound[name] = self.payload(inner, depth + 1)
        raise NbtError(f"unknown NBT tag id {tag} at offset {self.pos - 1}")


def read_nbt(data: bytes, little: bool = False) -> tuple[str, dict]:
    """Parse an uncompressed NBT document: ``(root name, root compound)``.

    >>> read_nbt(bytes.fromhex("0a0004726f6f7403000178000000070000"))
    ('root', {'x': 7})
    """
    reader = _Reader(data, little)
    try:
        tag = reader.number("b", 1)
        if tag != 10:
            raise NbtError("an NBT file starts with a Compound tag")
        name = reader.string()
        root = reader.payload(10, 0)
    except RecursionError:
        raise NbtError("NBT nested too deeply") from None
    return name, root


def read_nbt_file(data: bytes, little: bool = False) -> tuple[str, dict]:
    """Parse NBT that may be gzipped (detected by its magic bytes)."""
    if data[:2] == GZIP_MAGIC:
        data = inflate(data)
    return read_nbt(data, little)
