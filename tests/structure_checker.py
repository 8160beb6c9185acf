"""A strict, independent reader and checker for vanilla structure files ``.nbt``.

Written from docs/minecraft.md (§0, §3, §8, §10, §11), not from blockmaze: it
parses NBT with twoolie's ``nbt`` package (a second NBT implementation that shows every tag's
type) and checks each rule vanilla's ``StructureTemplate.load`` and litemapy depend on, raising
:class:`StructureError` naming the field and the rule. :class:`StrictNbt` holds the tag-level
checks, shared with ``litematic_checker``.

Example
-------
>>> import gzip
>>> read_structure(gzip.compress(b"not nbt", mtime=0))
Traceback (most recent call last):
...
structure_checker.StructureError: not a well-formed NBT file: First record is not a Compound Tag
"""

from __future__ import annotations

import gzip
import io
import os
import re
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from nbt import nbt

TAG_NAMES = {
    nbt.TAG_END: "TAG_End", nbt.TAG_BYTE: "TAG_Byte", nbt.TAG_SHORT: "TAG_Short",
    nbt.TAG_INT: "TAG_Int", nbt.TAG_LONG: "TAG_Long", nbt.TAG_FLOAT: "TAG_Float",
    nbt.TAG_DOUBLE: "TAG_Double", nbt.TAG_BYTE_ARRAY: "TAG_Byte_Array",
    nbt.TAG_STRING: "TAG_String", nbt.TAG_LIST: "TAG_List", nbt.TAG_COMPOUND: "TAG_Compound",
    nbt.TAG_INT_ARRAY: "TAG_Int_Array", nbt.TAG_LONG_ARRAY: "TAG_Long_Array",
}
GZIP_MAGIC = b"\x1f\x8b"
MIN_DATA_VERSION = 1519  # 1.13, the first flattened release; vanilla assumes 500 when it is missing
BLOCK_NAME = re.compile(r"^[a-z0-9_.-]+:[a-z0-9_./-]+$")
PROPERTY = re.compile(r"^[a-z0-9_]+$")


class StructureError(ValueError):
    """A structure file breaks a rule of the format (or of the readers that matter)."""


class _Unclosable(io.BytesIO):
    """A buffer NBTFile cannot close (it closes what it parsed), so the parse position stays readable."""

    def close(self) -> None:
        pass


class StrictNbt:
    """Tag-level checks over twoolie ``nbt`` tags that raise ``error`` with the tag's path."""

    def __init__(self, error: type[ValueError]):
        self.error = error

    def parse(self, source: bytes | str | os.PathLike) -> nbt.NBTFile:
        """Check the gzip wrapper (magic, mtime 0) and parse the NBT inside, which must fill the file."""
        data = source if isinstance(source, (bytes, bytearray)) else Path(source).read_bytes()
        if data[:2] != GZIP_MAGIC:
            raise self.error(f"not gzipped: the file starts with {bytes(data[:2]).hex(' ')}, not 1f 8b")
        if len(data) < 10:
            raise self.error("the gzip header is truncated")
        mtime = struct.unpack("<I", data[4:8])[0]
        if mtime != 0:
            raise self.error(f"the gzip header carries a time stamp (mtime {mtime}); it must be 0")
        try:
            raw = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as error:
            raise self.error(f"broken gzip stream: {error}") from None
        buffer = _Unclosable(raw)
        try:
            root = nbt.NBTFile(buffer=buffer)
        except (nbt.MalformedFileError, ValueError, KeyError, struct.error) as error:
            raise self.error(f"not a well-formed NBT file: {error}") from None
        if buffer.tell() != len(raw):
            raise self.error(f"{len(raw) - buffer.tell()} bytes follow the root tag")
        return root

    def find(self, compound: nbt.TAG_Compound, name: str):
        """The child tag called ``name`` or None; a name used twice is an error."""
        found = [tag for tag in compound.tags if tag.name == name]
        if len(found) > 1:
            raise self.error(f"{name} appears {len(found)} times in one compound")
        return found[0] if found else None

    def expect_type(self, tag, tag_id: int, path: str) -> None:
        if tag.id != tag_id:
            raise self.error(f"{path} must be a {TAG_NAMES[tag_id]}, found {TAG_NAMES.get(tag.id, tag.id)}")

    def tag(self, compound: nbt.TAG_Compound, name: str, tag_id: int, path: str):
        """The required child ``name`` of type ``tag_id``."""
        tag = self.find(compound, name)
        if tag is None:
            raise self.error(f"{path} is missing")
        self.expect_type(tag, tag_id, path)
        return tag

    def int(self, compound: nbt.TAG_Compound, name: str, path: str) -> int:
        return self.tag(compound, name, nbt.TAG_INT, path).value

    def list(self, compound: nbt.TAG_Compound, name: str, element_id: int, path: str) -> list:
        """The required List ``name`` whose element type is ``element_id`` (also when empty)."""
        tag = self.tag(compound, name, nbt.TAG_LIST, path)
        if tag.tagID != element_id:
            raise self.error(
                f"{path} must be a list of {TAG_NAMES[element_id]}, its element type is "
                f"{TAG_NAMES.get(tag.tagID, tag.tagID)}"
            )
        return list(tag.tags)

    def block_state(self, entry: nbt.TAG_Compound, path: str) -> str:
        """A palette entry ``{Name, Properties}`` as a canonical state string (properties sorted).

        Properties, when present, is a Compound of Strings; ASCII only (§0).
        """
        self.expect_type(entry, nbt.TAG_COMPOUND, path)
        name = self.tag(entry, "Name", nbt.TAG_STRING, f"{path}.Name").value
        if not BLOCK_NAME.match(name):
            raise self.error(f"{path}.Name {name!r} is not a block id like 'minecraft:stone'")
        properties = self.find(entry, "Properties")
        if properties is None:
            return name
        self.expect_type(properties, nbt.TAG_COMPOUND, f"{path}.Properties")
        pairs = []
        for prop in properties.tags:
            self.expect_type(prop, nbt.TAG_STRING, f"{path}.Properties.{prop.name}")
            if not (PROPERTY.match(prop.name) and PROPERTY.match(prop.value)):
                raise self.error(f"{path}.Properties {prop.name}={prop.value!r} is not a plain key=value")
            pairs.append(f"{prop.name}={prop.value}")
        if not pairs:
            raise self.error(f"{path}.Properties is empty; leave it out when a block has none")
        return f"{name}[{','.join(sorted(pairs))}]"

    def xyz(self, compound: nbt.TAG_Compound, name: str, path: str) -> tuple[int, int, int]:
        """A Compound ``{x, y, z}`` of Ints (Litematica's sizes and positions)."""
        tag = self.tag(compound, name, nbt.TAG_COMPOUND, path)
        return tuple(self.int(tag, axis, f"{path}.{axis}") for axis in "xyz")

    def plain(self, tag):
        """A tag as plain Python values (dict, list, int, float, str, bytes)."""
        if tag.id == nbt.TAG_COMPOUND:
            return {child.name: self.plain(child) for child in tag.tags}
        if tag.id == nbt.TAG_LIST:
            return [self.plain(child) for child in tag.tags]
        if tag.id == nbt.TAG_BYTE_ARRAY:
            return bytes(tag.value)
        if tag.id in (nbt.TAG_INT_ARRAY, nbt.TAG_LONG_ARRAY):
            return list(tag.value)
        return tag.value


def canonical_state(state: str) -> str:
    """A block-state string with its properties sorted, for comparing states.

    >>> canonical_state("minecraft:oak_log[b=1,a=2]")
    'minecraft:oak_log[a=2,b=1]'
    """
    name, _, rest = state.partition("[")
    if not rest:
        return name
    return f"{name}[{','.join(sorted(rest.rstrip(']').split(',')))}]"


_STRICT = StrictNbt(StructureError)


@dataclass
class StructureFile:
    """What a valid structure file holds. ``size`` is (x, y, z); ``blocks`` is shaped (y, z, x)."""

    data_version: int
    size: tuple[int, int, int]
    palette: list[str]  # canonical state strings, in file order
    blocks: np.ndarray  # object array of canonical states, None where no block is listed
    entities: list
    root_name: str

    @property
    def listed(self) -> int:
        """How many positions the file lists."""
        return int(np.count_nonzero(self.blocks != None))  # noqa: E711 (element-wise)


def read_structure(source: bytes | str | os.PathLike, data_version: int | None = None) -> StructureFile:
    """Read and check a structure file (path or bytes); ``data_version`` is enforced if given."""
    root = _STRICT.parse(source)
    found = _STRICT.int(root, "DataVersion", "DataVersion")
    if found < MIN_DATA_VERSION:
        raise StructureError(f"DataVersion {found} predates block-state palettes ({MIN_DATA_VERSION})")
    if data_version is not None and found != data_version:
        raise StructureError(f"DataVersion is {found}, expected {data_version}")
    size_tags = _STRICT.list(root, "size", nbt.TAG_INT, "size")
    if len(size_tags) != 3:
        raise StructureError(f"size must hold 3 Ints (x, y, z), holds {len(size_tags)}")
    size = tuple(tag.value for tag in size_tags)
    if min(size) < 1:
        raise StructureError(f"size {size} has a side below 1")
    if _STRICT.find(root, "palettes") is not None:
        raise StructureError("palettes (random variants per placement) is not expected here")
    palette = [_STRICT.block_state(entry, f"palette[{i}]")
               for i, entry in enumerate(_STRICT.list(root, "palette", nbt.TAG_COMPOUND, "palette"))]
    if len(set(palette)) != len(palette):
        raise StructureError("palette lists a block state twice")
    width, height, length = size
    blocks = np.full((height, length, width), None, dtype=object)
    for i, entry in enumerate(_STRICT.list(root, "blocks", nbt.TAG_COMPOUND, "blocks")):
        path = f"blocks[{i}]"
        state = _STRICT.int(entry, "state", f"{path}.state")
        if not 0 <= state < len(palette):
            raise StructureError(f"{path}.state {state} is outside the palette (0..{len(palette) - 1})")
        pos = [tag.value for tag in _STRICT.list(entry, "pos", nbt.TAG_INT, f"{path}.pos")]
        if len(pos) != 3 or not all(0 <= p < s for p, s in zip(pos, size, strict=True)):
            raise StructureError(f"{path}.pos {pos} is not a position inside size {size}")
        for child in entry.tags:
            if child.name not in ("state", "pos", "nbt"):
                raise StructureError(f"{path}.{child.name} is not a field of a structure block entry")
        x, y, z = pos
        if blocks[y, z, x] is not None:
            raise StructureError(f"{path}.pos {pos} is listed twice")
        blocks[y, z, x] = palette[state]
    entities = _STRICT.list(root, "entities", nbt.TAG_COMPOUND, "entities")
    return StructureFile(
        data_version=found, size=size, palette=palette, blocks=blocks,
        entities=[_STRICT.plain(e) for e in entities], root_name=root.name,
    )
