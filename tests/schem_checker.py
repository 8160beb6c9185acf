"""A strict, independent reader and checker for Sponge schematic ``.schem`` files (v2 and v3).

Written from docs/minecraft.md (§0, §1, §9, §10, §11, §12), not from
blockmaze: it parses NBT with twoolie's ``nbt`` package (a second NBT implementation, which exposes
the root name and every tag's type) and decodes the varint block data itself. Every rule a real
reader (WorldEdit, FAWE, Litematica, Amulet) depends on is checked, and a violation raises
:class:`SchemError` naming the field and the rule.

Example
-------
>>> import io, gzip
>>> read_schem(gzip.compress(b"not nbt", mtime=0))
Traceback (most recent call last):
...
schem_checker.SchemError: not a well-formed NBT file: First record is not a Compound Tag
"""

from __future__ import annotations

import gzip
import io
import os
import re
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from nbt import nbt

# Tag ids (§0), by name for messages.
TAG_NAMES = {
    nbt.TAG_END: "TAG_End", nbt.TAG_BYTE: "TAG_Byte", nbt.TAG_SHORT: "TAG_Short",
    nbt.TAG_INT: "TAG_Int", nbt.TAG_LONG: "TAG_Long", nbt.TAG_FLOAT: "TAG_Float",
    nbt.TAG_DOUBLE: "TAG_Double", nbt.TAG_BYTE_ARRAY: "TAG_Byte_Array",
    nbt.TAG_STRING: "TAG_String", nbt.TAG_LIST: "TAG_List", nbt.TAG_COMPOUND: "TAG_Compound",
    nbt.TAG_INT_ARRAY: "TAG_Int_Array", nbt.TAG_LONG_ARRAY: "TAG_Long_Array",
}

GZIP_MAGIC = b"\x1f\x8b"
V2_ROOT_NAME = "Schematic"  # WorldEdit detects v1/v2 only under this root name (§1.1)
MIN_DATA_VERSION = 1519  # 1.13: the first release with flattened block-state palettes
MAX_VARINT_BYTES = 5  # a Java int
# namespace:path with optional [key=value,...] properties (Minecraft resource-location characters).
BLOCK_STATE = re.compile(
    r"^[a-z0-9_.-]+:[a-z0-9_./-]+(\[[a-z0-9_]+=[a-z0-9_]+(,[a-z0-9_]+=[a-z0-9_]+)*\])?$"
)


class SchemError(ValueError):
    """A .schem file breaks a rule of the format (or of the readers that matter)."""


@dataclass
class SchemFile:
    """What a valid .schem holds. ``indices`` is shaped (y, z, x), i.e. (height, length, width)."""

    version: int
    data_version: int
    width: int
    height: int
    length: int
    offset: tuple[int, int, int]
    palette: dict[str, int]
    indices: np.ndarray
    metadata: dict = field(default_factory=dict)
    block_entities: list = field(default_factory=list)
    entities: list | None = None
    root_name: str = ""

    @property
    def states(self) -> list[str]:
        """Block-state strings in palette-index order."""
        return sorted(self.palette, key=self.palette.__getitem__)

    @property
    def blocks(self) -> np.ndarray:
        """Block-state strings, an object array shaped (y, z, x)."""
        return np.array(self.states, dtype=object)[self.indices]

    @property
    def we_offset(self) -> tuple[int, int, int]:
        """WorldEdit's paste offset (v2 ``Metadata.WEOffsetX/Y/Z``; (0, 0, 0) for v3)."""
        return tuple(self.metadata.get(f"WEOffset{axis}", 0) for axis in "XYZ")

    def block_at(self, x: int, y: int, z: int) -> str:
        """The block state at schematic-relative (x, y, z)."""
        return self.states[self.indices[y, z, x]]


def decode_varints(data: bytes) -> list[int]:
    """Decode unsigned LEB128 varints (7 bits a byte, low group first, bit 7 = more follows).

    >>> decode_varints(bytes([1, 127, 128, 1, 172, 2]))
    [1, 127, 128, 300]
    >>> decode_varints(bytes([0x80]))
    Traceback (most recent call last):
    ...
    schem_checker.SchemError: varint data ends inside a varint (byte 0 starts it)
    """
    values = []
    value = shift = start = 0
    for position, byte in enumerate(data):
        if shift == 0:
            start = position
        value |= (byte & 0x7F) << shift
        if byte & 0x80:
            shift += 7
            if shift >= 7 * MAX_VARINT_BYTES:
                raise SchemError(f"varint at byte {start} is longer than {MAX_VARINT_BYTES} bytes")
        else:
            if value > 0x7FFFFFFF:
                raise SchemError(f"varint at byte {start} ({value}) does not fit a Java int")
            values.append(value)
            value = shift = 0
    if shift:
        raise SchemError(f"varint data ends inside a varint (byte {start} starts it)")
    return values


def parse_nbt(source: bytes | str | os.PathLike) -> nbt.NBTFile:
    """Check the gzip wrapper (magic, mtime 0) and parse the NBT inside, which must fill the file."""
    data = source if isinstance(source, (bytes, bytearray)) else Path(source).read_bytes()
    if data[:2] != GZIP_MAGIC:
        raise SchemError(f"not gzipped: the file starts with {bytes(data[:2]).hex(' ')}, not 1f 8b")
    if len(data) < 10:
        raise SchemError("the gzip header is truncated")
    mtime = struct.unpack("<I", data[4:8])[0]
    if mtime != 0:
        raise SchemError(f"the gzip header carries a time stamp (mtime {mtime}); it must be 0")
    try:
        raw = gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as error:
        raise SchemError(f"broken gzip stream: {error}") from None
    buffer = _Unclosable(raw)
    try:
        root = nbt.NBTFile(buffer=buffer)
    except (nbt.MalformedFileError, ValueError, KeyError, struct.error) as error:
        raise SchemError(f"not a well-formed NBT file: {error}") from None
    if buffer.tell() != len(raw):
        raise SchemError(f"{len(raw) - buffer.tell()} bytes follow the root tag")
    return root


class _Unclosable(io.BytesIO):
    """A buffer NBTFile cannot close (it closes what it parsed), so the parse position stays readable."""

    def close(self) -> None:
        pass


def read_schem(source: bytes | str | os.PathLike, version: int | None = None) -> SchemFile:
    """Read and check a .schem file (path or bytes); ``version`` (2 or 3) is enforced if given."""
    root = parse_nbt(source)
    body, layout = _schematic_body(root)
    found = _int(body, "Version", "Version")
    if found != layout:
        raise SchemError(
            f"Version is {found}, but the root layout is that of v{layout} "
            "(v2: root named 'Schematic'; v3: unnamed root holding a compound 'Schematic')"
        )
    if version is not None and found != version:
        raise SchemError(f"expected a v{version} schematic, found Version {found}")
    data_version = _int(body, "DataVersion", "DataVersion")
    if data_version < MIN_DATA_VERSION:
        raise SchemError(f"DataVersion {data_version} predates block-state palettes ({MIN_DATA_VERSION})")
    width, height, length = (_side(body, name) for name in ("Width", "Height", "Length"))
    offset = _tag(body, "Offset", nbt.TAG_INT_ARRAY, "Offset").value
    if len(offset) != 3:
        raise SchemError(f"Offset must hold 3 ints, holds {len(offset)}")
    if layout == 2:
        blocks, where = body, ""
        metadata = _v2_metadata(body)
        palette = _palette(body, "Palette")
        palette_max = _int(body, "PaletteMax", "PaletteMax")
        if palette_max != len(palette):
            raise SchemError(
                f"PaletteMax is {palette_max} but the palette has {len(palette)} entries; "
                "WorldEdit requires the entry count"
            )
        data_name = "BlockData"
    else:
        for name in ("PaletteMax", "Palette", "BlockData", "BlockEntities"):
            if _find(body, name) is not None:
                raise SchemError(f"Schematic.{name} is a v2 field; v3 has no such field at that level")
        blocks, where = _tag(body, "Blocks", nbt.TAG_COMPOUND, "Schematic.Blocks"), "Blocks."
        if _find(blocks, "PaletteMax") is not None:
            raise SchemError("Blocks.PaletteMax: v3 has no PaletteMax")
        meta_tag = _find(body, "Metadata")
        if meta_tag is not None:
            _expect_type(meta_tag, nbt.TAG_COMPOUND, "Metadata")
        metadata = _plain(meta_tag) if meta_tag is not None else {}
        palette = _palette(blocks, "Blocks.Palette")
        data_name = "Data"
    data = _tag(blocks, data_name, nbt.TAG_BYTE_ARRAY, where + data_name).value
    indices = _block_indices(bytes(data), width, height, length, len(palette), where + data_name)
    block_entities = _compound_list(blocks, "BlockEntities", where + "BlockEntities", required=True)
    for i, entry in enumerate(block_entities):
        _check_block_entity(entry, f"{where}BlockEntities[{i}]", (width, height, length))
    entities = _compound_list(body, "Entities", "Entities", required=False)
    return SchemFile(
        version=found, data_version=data_version, width=width, height=height, length=length,
        offset=tuple(offset), palette=palette, indices=indices, metadata=metadata,
        block_entities=[_plain(e) for e in block_entities],
        entities=None if entities is None else [_plain(e) for e in entities],
        root_name=root.name,
    )


def _schematic_body(root: nbt.NBTFile) -> tuple[nbt.TAG_Compound, int]:
    """The compound holding the schematic fields, and the version its placement implies."""
    if root.name == V2_ROOT_NAME:
        return root, 2
    if root.name == "" and _find(root, "Schematic") is not None:
        return _tag(root, "Schematic", nbt.TAG_COMPOUND, "Schematic"), 3
    raise SchemError(
        f"root tag is named {root.name!r}: a v2 root must be named 'Schematic', "
        "a v3 root must be unnamed and hold a compound 'Schematic'"
    )


def _find(compound: nbt.TAG_Compound, name: str):
    """The child tag called ``name`` or None; a name used twice is an error."""
    found = [tag for tag in compound.tags if tag.name == name]
    if len(found) > 1:
        raise SchemError(f"{name} appears {len(found)} times in one compound")
    return found[0] if found else None


def _expect_type(tag, tag_id: int, path: str) -> None:
    if tag.id != tag_id:
        raise SchemError(f"{path} must be a {TAG_NAMES[tag_id]}, found {TAG_NAMES.get(tag.id, tag.id)}")


def _tag(compound: nbt.TAG_Compound, name: str, tag_id: int, path: str):
    """The required child ``name`` of type ``tag_id``."""
    tag = _find(compound, name)
    if tag is None:
        raise SchemError(f"{path} is missing")
    _expect_type(tag, tag_id, path)
    return tag


def _int(compound: nbt.TAG_Compound, name: str, path: str) -> int:
    return _tag(compound, name, nbt.TAG_INT, path).value


def _side(body: nbt.TAG_Compound, name: str) -> int:
    """Width/Height/Length: a Short read unsigned, as WorldEdit does (``& 0xFFFF``)."""
    side = _tag(body, name, nbt.TAG_SHORT, name).value & 0xFFFF
    if side < 1:
        raise SchemError(f"{name} is 0")
    return side


def _v2_metadata(body: nbt.TAG_Compound) -> dict:
    """v2 Metadata with the WEOffsetX/Y/Z Ints readers use as the paste offset."""
    metadata = _tag(body, "Metadata", nbt.TAG_COMPOUND, "Metadata")
    for axis in "XYZ":
        _int(metadata, f"WEOffset{axis}", f"Metadata.WEOffset{axis}")
    return _plain(metadata)


def _palette(compound: nbt.TAG_Compound, path: str) -> dict[str, int]:
    """The ``Palette`` child: ASCII block states mapped to Ints that are exactly 0..n-1, each once."""
    palette = {}
    for tag in _tag(compound, "Palette", nbt.TAG_COMPOUND, path).tags:
        state = tag.name
        _expect_type(tag, nbt.TAG_INT, f"{path}[{state!r}]")
        if not state.isascii():
            raise SchemError(f"{path} key {state!r} is not ASCII")
        if not BLOCK_STATE.match(state):
            raise SchemError(f"{path} key {state!r} is not a block state like 'minecraft:oak_log[axis=z]'")
        if state in palette:
            raise SchemError(f"{path} lists {state!r} twice")
        palette[state] = tag.value
    values = sorted(palette.values())
    if not palette:
        raise SchemError(f"{path} is empty")
    if len(set(values)) != len(values):
        raise SchemError(f"{path} gives two states the same index")
    if values != list(range(len(values))):
        raise SchemError(f"{path} indices must be exactly 0..{len(values) - 1}, got {values[:10]}...")
    return palette


def _block_indices(data: bytes, width: int, height: int, length: int, size: int, path: str) -> np.ndarray:
    """Varint palette indices, index x + z*W + y*W*L, as a (y, z, x) array."""
    values = decode_varints(data)
    volume = width * height * length
    if len(values) != volume:
        raise SchemError(
            f"{path} decodes to {len(values)} values; Width*Height*Length is {volume} "
            f"({width}x{height}x{length})"
        )
    indices = np.array(values, dtype=np.int64).reshape(height, length, width)
    outside = np.flatnonzero(indices.ravel() >= size)
    if outside.size:
        at = int(outside[0])
        raise SchemError(
            f"{path}[{at}] is {values[at]}, outside the palette of {size} entries "
            f"(x={at % width}, y={at // (width * length)}, z={at // width % length})"
        )
    return indices


def _compound_list(compound: nbt.TAG_Compound, name: str, path: str, required: bool):
    """A list of compounds, typed TAG_Compound even when empty (not End-typed)."""
    tag = _find(compound, name)
    if tag is None:
        if required:
            raise SchemError(f"{path} is missing")
        return None
    _expect_type(tag, nbt.TAG_LIST, path)
    if tag.tagID != nbt.TAG_COMPOUND:
        raise SchemError(
            f"{path} must be a list of TAG_Compound, its element type is "
            f"{TAG_NAMES.get(tag.tagID, tag.tagID)}"
        )
    return list(tag.tags)


def _check_block_entity(entry: nbt.TAG_Compound, path: str, size: tuple[int, int, int]) -> None:
    """A block entity: ``Id`` String and a ``Pos`` Int_Array[3] inside the schematic."""
    _tag(entry, "Id", nbt.TAG_STRING, f"{path}.Id")
    pos = _tag(entry, "Pos", nbt.TAG_INT_ARRAY, f"{path}.Pos").value
    if len(pos) != 3 or not all(0 <= p < s for p, s in zip(pos, size, strict=True)):
        raise SchemError(f"{path}.Pos {pos} is not a position inside the schematic")


def _plain(tag):
    """A tag as plain Python values (dict, list, int, float, str, bytes)."""
    if tag.id == nbt.TAG_COMPOUND:
        return {child.name: _plain(child) for child in tag.tags}
    if tag.id == nbt.TAG_LIST:
        return [_plain(child) for child in tag.tags]
    if tag.id == nbt.TAG_BYTE_ARRAY:
        return bytes(tag.value)
    if tag.id in (nbt.TAG_INT_ARRAY, nbt.TAG_LONG_ARRAY):
        return list(tag.value)
    return tag.value
