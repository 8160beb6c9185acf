"""A small, strict, streaming NBT reader for inspecting files in bounded memory and time.

The bytes are inflated piece by piece (gzip is detected by its magic bytes) and never held
whole; at most ``limit`` inflated bytes are read (:func:`inflate_limit`: env
``BLOCKMAZE_INFO_LIMIT``, default 256 MiB: a 268-million-block Sponge schematic or Litematica
file, far past what WorldEdit or Litematica paste at once, or a 6-million-block structure file,
130 times what a structure block loads; raise it for bigger files). Every declared length is checked against what the limit leaves, nesting is
limited to Minecraft's 512, and the bulk of a file — arrays and lists longer than ``KEEP``
bytes, and long lists of block Compounds — is not kept but counted as it streams by (numba
kernels in :mod:`.nbtscan`) into a :class:`Tally`, or skipped as a :class:`Skipped` placeholder
that a second pass can count (see :func:`read_nbt_stream`).

Values come back as Python values: dict (Compound), list (List), str, int, float, numpy arrays
for array tags and lists of numbers (when short), Tally or Skipped (when long).
"""

from __future__ import annotations

import gzip  # noqa: F401 (the docstring examples use it)
import io
import os
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import BinaryIO, Literal

import numpy as np

from ..errors import BadFileError
from .timebound import check_time

MAX_DEPTH = 512  # Minecraft's own limit
DEFAULT_LIMIT = 1 << 28  # 256 MiB: a 268M-block .schem or .litematic, a 6M-block structure file
GZIP_MAGIC = b"\x1f\x8b"
PIECE = 1 << 20
RAW_PIECE = 1 << 16  # compressed bytes read at a time: small, so a bomb's unconsumed tail is cheap
KEEP = 1 << 22  # arrays up to this many bytes are kept whole
MAX_VALUES = 1 << 17  # Python values (tags outside the bulk) one file may hold

_SCALARS = {1: ("b", 1), 2: ("h", 2), 3: ("i", 4), 4: ("q", 8), 5: ("f", 4), 6: ("d", 8)}
_NUMPY = {1: "i1", 2: "i2", 3: "i4", 4: "i8", 5: "f4", 6: "f8", 7: "i1", 11: "i4", 12: "i8"}
_ARRAYS = {7: 1, 11: 4, 12: 8}
_STRUCTS = {(order, code): struct.Struct(order + code) for order in "<>" for code in "bhiqfdH"}


class NbtError(BadFileError):
    """The bytes are not well-formed NBT (or are more than the reader allows)."""


def inflate_limit() -> int:
    """The most inflated bytes ``info`` reads from one file: env ``BLOCKMAZE_INFO_LIMIT`` (bytes,
    or with a K/M/G suffix), else :data:`DEFAULT_LIMIT`.

    >>> inflate_limit() == DEFAULT_LIMIT or "BLOCKMAZE_INFO_LIMIT" in os.environ
    True
    """
    from ..support.memory import parse_bytes

    raw = os.environ.get("BLOCKMAZE_INFO_LIMIT")
    return DEFAULT_LIMIT if raw is None else parse_bytes(raw, "BLOCKMAZE_INFO_LIMIT")


def check_settings() -> None:
    """The info settings (``BLOCKMAZE_INFO_SECONDS``, ``BLOCKMAZE_INFO_LIMIT``) read once, before
    any file: a bad one is a usage error (BlockmazeError, exit 2) of its own, never blamed on the
    file being read.

    >>> os.environ["BLOCKMAZE_INFO_LIMIT"] = "lots"
    >>> check_settings()
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: BLOCKMAZE_INFO_LIMIT must be a whole number of bytes >= 1, optionally with K, M, G or T (e.g. 512M, 8G); got 'lots'
    >>> del os.environ["BLOCKMAZE_INFO_LIMIT"]
    """
    from .timebound import info_seconds

    info_seconds()
    inflate_limit()


@dataclass
class Tally:
    """How often each value occurs in a long array or list that was counted, not kept.

    >>> Tally.of(np.array([2, 2, 5])).counts
    {2: 2, 5: 1}
    """

    length: int
    counts: dict[int, int] = field(default_factory=dict)

    @classmethod
    def of(cls, values: np.ndarray) -> Tally:
        found, counts = np.unique(np.asarray(values), return_counts=True)
        return cls(int(np.asarray(values).size),
                   dict(zip(found.tolist(), counts.tolist(), strict=True)))

    def add(self, values: np.ndarray) -> None:
        self.length += int(values.size)
        for value, count in zip(*np.unique(values, return_counts=True), strict=True):
            self.counts[int(value)] = self.counts.get(int(value), 0) + int(count)


@dataclass
class Skipped:
    """A long array tag that was not kept: its tag id, length and place in the file (``ordinal``:
    the how-manieth skipped array, so a second pass can count it), and what was counted on the
    way: for a ByteArray, ``bytes`` (how often each byte value occurs) and ``varints`` (how often
    each varint value < 2**16 occurs, None if the bytes are not such varints); for a Litematica
    ``BlockStates`` read after its region's size and palette, ``packed`` (per palette index)."""

    tag: int
    length: int
    ordinal: int
    bytes: np.ndarray | None = None
    varints: np.ndarray | None = None
    packed: np.ndarray | None = None

    def __len__(self) -> int:
        return self.length


def _region_layout(context: dict | None) -> tuple[int, int, int] | None:
    """(bits, blocks, palette size) of a Litematica region whose Size and palette are read."""
    if not isinstance(context, dict):
        return None
    size, palette = context.get("Size"), context.get("BlockStatePalette")
    if not isinstance(size, dict) or not isinstance(palette, list) or not palette:
        return None
    x, y, z = (size.get(k) for k in "xyz")
    if not (isinstance(x, int) and isinstance(y, int) and isinstance(z, int)):
        return None
    return max(2, (len(palette) - 1).bit_length()), abs(x * y * z), len(palette)


class _Counting:
    """Counts a skipped array's pieces as they stream by (see :class:`Skipped`)."""

    def __init__(self, skipped: Skipped, layout):
        from .nbtscan import PackedCounter, varint_tally

        self.skipped, self.varint_tally = skipped, varint_tally
        self.state, self.carry = np.zeros(3, np.int64), b""
        self.bytes = np.zeros(256, np.int64)  # (skipped.bytes, for a ByteArray: added to in place)
        self.packed = None
        if skipped.tag == 7:
            skipped.bytes, skipped.varints = self.bytes, np.zeros(1 << 16, np.int64)
        elif layout is not None:
            self.packed = PackedCounter(*layout)

    def __call__(self, piece) -> None:
        skipped = self.skipped
        if skipped.tag == 7 and skipped.bytes is not None:
            values = np.frombuffer(piece, np.uint8)
            self.bytes += np.bincount(values, minlength=256)
            if skipped.varints is not None and self.varint_tally(values, skipped.varints, self.state):
                skipped.varints = None
        elif self.packed is not None:
            piece = self.carry + bytes(piece)
            cut = len(piece) - len(piece) % 8
            self.carry = piece[cut:]
            self.packed.feed(np.frombuffer(piece[:cut], ">u8").astype(np.uint64))

    def finish(self) -> None:
        if self.skipped.varints is not None and self.state[1]:
            self.skipped.varints = None  # ends inside a varint
        if self.packed is not None:
            try:
                self.skipped.packed = self.packed.finish()
            except ValueError:
                raise NbtError("BlockStates has an index outside the palette") from None


class Source:
    """The bytes of a file, inflated piece by piece if gzipped, at most ``limit`` bytes."""

    def __init__(self, file: BinaryIO, limit: int | None = None):
        self.file, self.limit = file, inflate_limit() if limit is None else limit
        self.buf, self.pos, self.total = b"", 0, 0
        head = file.read(2)
        self.gz = head == GZIP_MAGIC
        self.z = zlib.decompressobj(16 + zlib.MAX_WBITS) if self.gz else None
        self.pending = head

    def _raw(self) -> bytes:
        if self.pending:
            data, self.pending = self.pending, b""
            return data
        return self.file.read(RAW_PIECE if self.gz else PIECE)

    def _more(self) -> bytes:
        """The next piece of inflated bytes; b"" at the end."""
        check_time()
        z = self.z
        if z is None:
            piece = self._raw()
        else:
            piece = b""
            while not piece:
                if z.eof:  # (at the end of a member, unconsumed_tail also holds what follows)
                    data = z.unused_data or self._raw()
                    if not data:
                        return b""
                    if not data.startswith(GZIP_MAGIC[: len(data)]):
                        return b""  # trailing bytes after the gzip stream: ignored, as gzip does
                    self.z = z = zlib.decompressobj(16 + zlib.MAX_WBITS)
                elif z.unconsumed_tail:
                    data = z.unconsumed_tail
                else:
                    data = self._raw()
                    if not data:
                        raise NbtError("gzip data is truncated")
                try:
                    piece = z.decompress(data, PIECE)
                except zlib.error as error:
                    raise NbtError(f"damaged gzip data: {error}") from None
        self.total += len(piece)
        if self.total > self.limit:
            raise NbtError(f"the data inflates to more than {self.limit} bytes, the most info "
                           f"reads (set BLOCKMAZE_INFO_LIMIT to raise it)")
        return piece

    def left_at_most(self) -> int:
        return self.limit - self.total + len(self.buf) - self.pos

    def take(self, size: int) -> bytes:
        if size <= len(self.buf) - self.pos:
            out = self.buf[self.pos:self.pos + size]
            self.pos += size
            return out
        parts = [self.buf[self.pos:]]
        have = len(parts[0])
        while have < size:
            piece = self._more()
            if not piece:
                raise NbtError(f"truncated NBT: {size} bytes needed, {have} left")
            parts.append(piece)
            have += len(piece)
        data = b"".join(parts)
        self.buf, self.pos = data, size
        return data[:size]

    def window(self, least: int) -> tuple[bytes, int]:
        """The buffered bytes from the read position, at least ``least`` of them if the file has
        them (fewer only at its end)."""
        if len(self.buf) - self.pos < least:
            parts, have = [self.buf[self.pos:]], len(self.buf) - self.pos
            while have < least:
                piece = self._more()
                if not piece:
                    break
                parts.append(piece)
                have += len(piece)
            self.buf, self.pos = b"".join(parts), 0
        return self.buf, self.pos

    def pieces(self, size: int):
        """Yield ``size`` bytes in pieces of at most about PIECE bytes, keeping none."""
        while size:
            if self.pos >= len(self.buf):
                self.buf, self.pos = self._more(), 0
                if not self.buf:
                    raise NbtError(f"truncated NBT: {size} more bytes needed")
            step = min(size, len(self.buf) - self.pos)
            yield self.buf[self.pos:self.pos + step]
            self.pos += step
            size -= step


class _Reader:
    def __init__(self, source: Source, little: bool, count: dict[int, Callable] | None,
                 whole: int = 0):
        self.src = source
        self.whole = whole  # Compound lists up to this long are kept, not counted
        self.order: Literal["<", ">"] = "<" if little else ">"
        self.skipped = 0
        self.values = 0
        self.count = count or {}  # ordinal of a skipped array -> function fed its pieces

    def number(self, code: str, size: int):
        src, unpack = self.src, _STRUCTS[self.order, code]
        pos = src.pos
        if pos + size <= len(src.buf):  # the common case: read in place, no slice
            src.pos = pos + size
            return unpack.unpack_from(src.buf, pos)[0]
        return unpack.unpack(src.take(size))[0]

    def string(self) -> str:
        size, src = self.number("H", 2), self.src
        pos = src.pos
        if pos + size <= len(src.buf):
            src.pos = pos + size
            raw = src.buf[pos:pos + size]
        else:
            raw = src.take(size)
        return raw.decode("utf-8", "replace")  # modified UTF-8 oddities: keep going

    def length(self, item_size: int) -> int:
        n = self.number("i", 4)
        if n < 0 or n * item_size > self.src.left_at_most():
            raise NbtError(f"an NBT length of {n} exceeds what the file can hold")
        return n

    def numbers(self, tag: int, n: int, size: int, name: str, context: dict | None = None):
        dtype = np.dtype(_NUMPY[tag]).newbyteorder("<" if self.order == "<" else ">")
        if n * size <= KEEP:
            return np.frombuffer(self.src.take(n * size), dtype=dtype)
        if tag in _ARRAYS:
            skipped = Skipped(tag, n, self.skipped)
            self.skipped += 1
            feed = self.count.get(skipped.ordinal)
            counting = None
            if tag == 7 or (tag == 12 and name == "BlockStates" and _region_layout(context)):
                counting = _Counting(skipped, _region_layout(context) if tag == 12 else None)
            for piece in self.src.pieces(n * size):
                if feed is not None:
                    feed(piece)
                if counting is not None:
                    counting(piece)
            if counting is not None:
                counting.finish()
            return skipped
        tally = Tally(0)  # a long List of numbers: counted as it goes by
        if tag > 4:
            raise NbtError(f"a List of {n} floating-point numbers is more than info reads")
        carry = b""
        for piece in self.src.pieces(n * size):
            piece = carry + piece
            cut = len(piece) - len(piece) % size
            carry = piece[cut:]
            tally.add(np.frombuffer(piece[:cut], dtype=dtype))
        return tally

    def compounds(self, n: int) -> Tally:
        """A long List of Compounds: the top-level Int ``state`` of each, counted (a structure
        file's blocks), the rest checked and passed over."""
        from .nbtscan import STATUS, compound_states

        if self.order == "<":
            raise NbtError(f"a List of {n} Compounds is more than info reads")
        first = self.payload(10, 1)  # the first in Python: a hostile list fails before the JIT starts
        if not isinstance(first.get("state"), int) or first["state"] < 0:
            raise NbtError(f"a List of Compounds holds {STATUS[-5]}")
        tally, out, want = Tally(0), np.empty(1 << 16, np.int64), 1 << 12
        tally.add(np.array([first["state"]]))
        while tally.length < n:
            check_time()
            buf, pos = self.src.window(want)
            view = np.frombuffer(buf, np.uint8)
            end, done, status = compound_states(view, pos, view.size, min(n - tally.length, out.size), out)
            if status:
                raise NbtError(f"a List of Compounds holds {STATUS[status]}")
            if done == 0:
                if view.size - pos < want:
                    raise NbtError("truncated NBT in a List of Compounds")
                want *= 2
                continue
            self.src.pos = int(end)
            tally.add(out[:done])
            want = 1 << 12
        return tally

    def payload(self, tag: int, depth: int, name: str = "", context: dict | None = None):
        if depth > MAX_DEPTH:
            raise NbtError(f"NBT nested deeper than {MAX_DEPTH}")
        self.values += 1
        if not self.values % 4096:
            check_time()
        if self.values > MAX_VALUES + 4 * self.whole:
            raise NbtError(f"more than {MAX_VALUES} NBT values outside the block data, more than "
                           "any file blockmaze writes")
        if tag in _SCALARS:
            return self.number(*_SCALARS[tag])
        if tag in _ARRAYS:
            size = _ARRAYS[tag]
            return self.numbers(tag, self.length(size), size, name, context)
        if tag == 8:
            return self.string()
        if tag == 9:
            item = self.number("b", 1)
            if item in _SCALARS:
                size = _SCALARS[item][1]
                return self.numbers(item, self.length(size), size, name)
            n = self.length(1 if item else 0)
            if item == 0:
                return []
            if item == 10 and n > max(4096, self.whole):
                return self.compounds(n)
            return [self.payload(item, depth + 1, name) for _ in range(n)]
        if tag == 10:
            compound: dict[str, object] = {}
            while True:
                inner = self.number("b", 1)
                if inner == 0:
                    return compound
                key = self.string()
                compound[key] = self.payload(inner, depth + 1, key, compound)
        raise NbtError(f"unknown NBT tag id {tag}")


def read_nbt_stream(file: BinaryIO, little: bool = False, limit: int | None = None,
                    count: dict[int, Callable] | None = None,
                    whole: int = 0) -> tuple[str, dict]:
    """Parse NBT (gzipped or not) from a binary file: ``(root name, root compound)``.

    ``count`` maps the ordinal of a skipped array (see :class:`Skipped`) to a function that is
    fed that array's bytes, piece by piece, on this pass. ``whole``: lists of up to that many
    Compounds are kept, not counted, and the file may hold ``4 * whole`` more values (a
    structure file's blocks, read by :mod:`blockmaze.readers.prefab`).

    >>> read_nbt_stream(io.BytesIO(gzip.compress(bytes.fromhex("0a0004726f6f7403000178000000070000"))))
    ('root', {'x': 7})
    """
    reader = _Reader(Source(file, limit), little, count, whole)
    try:
        if reader.number("b", 1) != 10:
            raise NbtError("an NBT file starts with a Compound tag")
        name = reader.string()
        root = reader.payload(10, 0)
    except RecursionError:
        raise NbtError("NBT nested too deeply") from None
    except MemoryError:
        raise NbtError("the NBT data needs more memory than is available") from None
    return name, root


def read_nbt(data: bytes, little: bool = False) -> tuple[str, dict]:
    """Parse NBT bytes (gzipped or not): ``(root name, root compound)``.

    >>> read_nbt(bytes.fromhex("0a0004726f6f7403000178000000070000"))
    ('root', {'x': 7})
    """
    return read_nbt_stream(io.BytesIO(data), little)


def inflate(data: bytes, limit: int | None = None) -> bytes:
    """Gunzip ``data`` (all members), refusing to produce more than ``limit`` bytes.

    >>> inflate(gzip.compress(b"maze"))
    b'maze'
    """
    source = Source(io.BytesIO(data), limit)
    if not source.gz:
        raise NbtError("not gzip data")
    out = []
    while piece := source._more():
        out.append(piece)
    return b"".join(out)


__all__ = ["GZIP_MAGIC", "KEEP", "NbtError", "Skipped", "Source", "Tally", "inflate",
           "inflate_limit", "read_nbt", "read_nbt_stream"]
