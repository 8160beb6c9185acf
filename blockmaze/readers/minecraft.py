"""``info`` for the Minecraft formats: Sponge, structure, Litematica, MCEdit, Bedrock (NBT, read
by the streaming :mod:`blockmaze.readers.nbtread`) and datapacks (zip, read member by
member in pieces).

Block data too long to keep is counted as it streams by, or, when a Litematica region's palette
comes after its block states, on a second pass over the file (:func:`_recount`), so memory stays
bounded whatever the file declares.

Example
-------
>>> import io, blockmaze as bm
>>> out = io.BytesIO()
>>> bm.write(bm.extrude(bm.to_blocks(bm.generate((2, 3), rng=1))), out, format="litematic")
>>> read_nbt_info(lambda: io.BytesIO(out.getvalue()), ".litematic").size
(7, 4, 5)
"""

from __future__ import annotations

import re
import zipfile
import zlib
from collections import Counter
from collections.abc import Callable
from typing import BinaryIO

import numpy as np

from ..errors import BadFileError
from .nbtread import (GZIP_MAGIC, NbtError, Skipped, Tally, inflate_limit,
                                        read_nbt_stream)
from .base import FileInfo, load_json, need, open_zip, zip_member
from .timebound import check_time

Opener = Callable[[], BinaryIO]
MAX_LINE = 1 << 15  # a datapack line longer than this is refused (ours are < 200 bytes)
MAX_COMMANDS = 65536  # maxCommandChainLength: blockmaze's functions hold far fewer


def _recount(opener: Opener, little: bool, skipped: Skipped, make_feed) -> None:
    """Stream the file again, feeding the pieces of ``skipped`` to ``make_feed``'s function."""
    with opener() as file:
        read_nbt_stream(file, little, count={skipped.ordinal: make_feed})


def _palette_indices(palette: dict) -> None:
    if any(not isinstance(v, int) or not 0 <= v < len(palette) for v in palette.values()) \
            or len(set(palette.values())) != len(palette):
        raise BadFileError("the palette's indices are not 0..n-1 without repeats")


def _byte_array(mapping: dict, key: str, where: str = "") -> tuple[np.ndarray | Skipped, np.ndarray]:
    """``mapping[key]``, checked to be a ByteArray (kept, or streamed by and counted), and how
    often each byte value occurs in it; BadFileError for any other tag (an IntArray's bytes are
    not block ids).

    >>> _byte_array({"Blocks": np.array([3, 3, 1], np.int8)}, "Blocks")[1][[1, 3]].tolist()
    [1, 2]
    >>> _byte_array({"Blocks": np.array([3, 3, 1], np.int32)}, "Blocks")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BadFileError: Blocks must be a ByteArray
    """
    value = need(mapping, key, (np.ndarray, Skipped), where)
    if isinstance(value, Skipped) and value.bytes is not None:  # (counted for a ByteArray only)
        return value, value.bytes
    if isinstance(value, np.ndarray) and value.dtype.itemsize == 1:
        return value, np.bincount(value.view(np.uint8), minlength=256)
    raise BadFileError(f"{where}{key} must be a ByteArray")


def _varints(data, volume: int, palette_size: int) -> np.ndarray:
    from .nbtscan import STATUS, varint_tally

    counts, state = np.zeros(max(palette_size, 1), np.int64), np.zeros(3, np.int64)

    def feed(piece) -> None:
        status = varint_tally(np.frombuffer(piece, np.uint8), counts, state)
        if status:
            raise BadFileError(f"the block data has {STATUS[status]}")

    if isinstance(data, Skipped):
        if data.varints is None:
            raise BadFileError("the block data is not a run of varints")
        if data.varints[palette_size:].any():
            raise BadFileError(f"the block data has {STATUS[-2]}")
        counts = data.varints[:max(palette_size, 1)]
        state[2] = counts.sum()
    else:
        feed(data.tobytes())
    if state[1] or state[2] != volume:
        raise BadFileError(f"the block data holds {state[2]} blocks{' and a cut varint' if state[1] else ''}; "
                           f"the size holds {volume}")
    return counts


def _named(names: list[str] | dict, counts) -> dict[str, int]:
    if isinstance(names, dict):
        names = {index: name for name, index in names.items()}
    else:
        names = dict(enumerate(names))
    items = counts.items() if isinstance(counts, dict) else enumerate(counts.tolist())
    out: dict[str, int] = {}
    for index, count in items:
        if count:
            name = names.get(index, f"#{index}")
            out[name] = out.get(name, 0) + int(count)
    return out


def _sponge(root: dict, version: int, opener: Opener) -> FileInfo:
    body = root if version == 2 else need(root, "Schematic", dict)
    where = "" if version == 2 else "Schematic."
    size = tuple(need(body, k, int, where) & 0xFFFF for k in ("Width", "Height", "Length"))
    blocks = body if version == 2 else need(body, "Blocks", dict, where)
    palette = need(blocks, "Palette", dict, where if version == 2 else where + "Blocks.")
    data, _ = _byte_array(blocks, "BlockData" if version == 2 else "Data", where)
    _palette_indices(palette)
    counts = _varints(data, size[0] * size[1] * size[2], len(palette))
    details = {"PaletteMax": body.get("PaletteMax")} if version == 2 else {}
    return FileInfo(f"Sponge schematic v{version}", size, need(body, "DataVersion", int, where),
                    _named(palette, counts), details)


def _list_ints(value: object, where: str) -> tuple[int, int, int]:
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if not isinstance(value, list) or len(value) != 3 or not all(isinstance(v, int) for v in value):
        raise BadFileError(f"{where} must be a list of 3 Ints")
    return value[0], value[1], value[2]


def _state_name(entry: dict) -> str:
    """``name[key=value,...]`` of a palette entry, every part checked to be a String (a block
    state of another NBT type is refused, never an internal error)."""
    name = need(entry, "Name", str, "palette entry ")
    props = entry.get("Properties")
    props = {} if props is None else props
    if not isinstance(props, dict):
        raise BadFileError("palette entry Properties must be a Compound")
    if not all(isinstance(value, str) for value in props.values()):
        raise BadFileError("palette entry Properties must hold Strings")
    if props:
        name += "[" + ",".join(f"{k}={v}" for k, v in sorted(props.items())) + "]"
    return name


def _structure(root: dict) -> FileInfo:
    size = _list_ints(need(root, "size", (list, np.ndarray)), "size")
    palette = [_state_name(e) for e in need(root, "palette", list)]
    blocks = need(root, "blocks", (list, Tally))
    if isinstance(blocks, list):
        blocks = Tally.of(np.array([need(b, "state", int, "blocks[].") for b in blocks], np.int64))
    if any(not 0 <= state < len(palette) for state in blocks.counts):
        raise BadFileError("a block's state is outside the palette")
    return FileInfo("structure (.nbt)", size, root.get("DataVersion"), _named(palette, blocks.counts),
                    {"blocks listed": blocks.length})


def _litematic(root: dict, opener: Opener) -> FileInfo:
    from .nbtscan import STATUS, PackedCounter

    counter: Counter = Counter()
    regions = need(root, "Regions", dict)
    total = [0, 0, 0]
    for name, region in regions.items():
        where = f"Regions.{name}."
        raw = need(region, "Size", dict, where)
        size = tuple(abs(need(raw, k, int, where + "Size.")) for k in "xyz")
        palette = [_state_name(e) for e in need(region, "BlockStatePalette", list, where)]
        longs = need(region, "BlockStates", (np.ndarray, Skipped), where)
        volume = size[0] * size[1] * size[2]
        bits = max(2, int(len(palette) - 1).bit_length())
        if len(longs) != -(-volume * bits // 64):
            raise BadFileError(f"{where}BlockStates has {len(longs)} longs; {volume} blocks need "
                               f"{-(-volume * bits // 64)}")
        if isinstance(longs, Skipped) and longs.packed is not None:
            counts = longs.packed
        else:
            packed = PackedCounter(bits, volume, len(palette))
            carry = [b""]

            def feed(piece, carry=carry, packed=packed) -> None:  # this entry's own
                piece = carry[0] + bytes(piece)
                cut = len(piece) - len(piece) % 8
                carry[0] = piece[cut:]
                packed.feed(np.frombuffer(piece[:cut], ">u8").astype(np.uint64))

            if isinstance(longs, Skipped):
                _recount(opener, False, longs, feed)
            else:
                feed(longs.astype(">i8").tobytes())
            try:
                counts = packed.finish()
            except ValueError:
                raise BadFileError(f"{where}BlockStates has {STATUS[-2]}") from None
        counter.update(_named(palette, counts))
        total = [max(t, s) for t, s in zip(total, size, strict=True)]
    return FileInfo(f"Litematica schematic v{root.get('Version')}", (total[0], total[1], total[2]),
                    root.get("MinecraftDataVersion"), dict(counter), {"regions": len(regions)})


def _legacy(root: dict, opener: Opener) -> FileInfo:
    size = tuple(need(root, k, int) & 0xFFFF for k in ("Width", "Height", "Length"))
    blocks, ids = _byte_array(root, "Blocks")
    data, _ = _byte_array(root, "Data")
    volume = size[0] * size[1] * size[2]
    if len(blocks) != volume or len(data) != volume:
        raise BadFileError(f"Blocks and Data must hold {volume} entries")
    details = {"Materials": root.get("Materials")}
    if isinstance(blocks, np.ndarray) and isinstance(data, np.ndarray):
        keys = blocks.view(np.uint8).astype(np.int64) * 16 + (data.view(np.uint8) & 15)
        counts = {f"{k // 16}:{k % 16}": int(c) for k, c in zip(*np.unique(keys, return_counts=True), strict=True)}
    else:  # too long to pair up in memory: ids alone
        counts = {f"{k}:*": int(c) for k, c in enumerate(ids) if c}
        details["data values"] = "not paired with ids (too many blocks to hold)"
    return FileInfo("MCEdit schematic (legacy, numeric ids)", size, None, counts, details)


def _bedrock(root: dict) -> FileInfo:
    size = _list_ints(need(root, "size", (list, np.ndarray)), "size")
    structure = need(root, "structure", dict)
    layers = need(structure, "block_indices", list, "structure.")
    palette = need(need(need(structure, "palette", dict, "structure."), "default", dict,
                        "structure.palette."), "block_palette", list, "structure.palette.default.")
    names = [need(entry, "name", str, "block_palette[].") for entry in palette]
    if len(layers) != 2 or not all(isinstance(layer, (list, np.ndarray, Tally)) for layer in layers):
        raise BadFileError("structure.block_indices must be two layers of one index per block")
    primary = layers[0] if isinstance(layers[0], Tally) else Tally.of(np.asarray(layers[0], np.int64))
    if primary.length != size[0] * size[1] * size[2]:
        raise BadFileError("structure.block_indices must be two layers of one index per block")
    if any(not -1 <= index < len(names) for index in primary.counts):
        raise BadFileError("a block index is outside the palette")
    counts = _named(["(none)"] + names, {index + 1: c for index, c in primary.counts.items()})
    return FileInfo("Bedrock structure (.mcstructure)", size, None, counts,
                    {"format_version": root.get("format_version")})


def read_nbt_info(opener: Opener, suffix: str) -> FileInfo:
    """Summarise an NBT file (``opener()`` gives it from its start, as often as needed)."""
    with opener() as file:
        head = file.read(3)
    little = suffix == ".mcstructure" or (head[:1] == b"\x0a" and head[1:3] == b"\x00\x00" and suffix != ".nbt")
    with opener() as file:
        root_name, root = read_nbt_stream(file, little)
    if little:
        return _bedrock(root)
    if head[:2] != GZIP_MAGIC:
        raise BadFileError("not gzipped, as every Java format blockmaze writes is")
    if "Regions" in root:
        return _litematic(root, opener)
    if "Materials" in root:
        return _legacy(root, opener)
    if root_name == "Schematic" and root.get("Version") == 2:
        return _sponge(root, 2, opener)
    if isinstance(root.get("Schematic"), dict) and root["Schematic"].get("Version") == 3:
        return _sponge(root, 3, opener)
    if "palette" in root and "blocks" in root:
        return _structure(root)
    raise BadFileError("an NBT file, but not one of the formats blockmaze writes")


# -- datapacks --------------------------------------------------------------------------------

_FIRST_WORDS = re.compile(rb"^[ \t]*([a-z][a-z_:]*)", re.M)


def _commands(member: BinaryIO, commands: Counter, budget: list[int]) -> None:
    """Count the first word of each command line of an open .mcfunction, piece by piece."""
    carry, lines = b"", [0]
    while True:
        check_time()
        try:
            piece = member.read(1 << 20)
        except (zipfile.BadZipFile, EOFError, zlib.error, OSError, NotImplementedError) as error:
            raise BadFileError(f"a function in the zip cannot be read: {error}") from None
        budget[0] -= len(piece)
        if budget[0] < 0:
            raise BadFileError(f"the zip unpacks to more than {inflate_limit()} bytes, the most info "
                               "reads (set BLOCKMAZE_INFO_LIMIT to raise it)")
        text = carry + piece
        cut = text.rfind(b"\n") + 1 if piece else len(text)
        carry = text[cut:]
        if len(carry) > MAX_LINE:
            raise BadFileError(f"a function has a line longer than {MAX_LINE} bytes")
        words = _FIRST_WORDS.findall(text, 0, cut)
        lines[0] += len(words)
        if lines[0] > MAX_COMMANDS:
            raise BadFileError(f"a function of more than {MAX_COMMANDS} commands (maxCommandChainLength): "
                               "not a datapack blockmaze writes")
        commands.update(word.decode("ascii") for word in words)
        if not piece:
            return


def read_datapack_info(file: BinaryIO) -> FileInfo:
    """Summarise a datapack (a zip with pack.mcmeta and .mcfunction files)."""
    try:
        archive = open_zip(file)
        members = archive.infolist()
        names = [m.filename for m in members]
        if "pack.mcmeta" not in names:
            raise BadFileError("a zip, but not a datapack: no pack.mcmeta at its top")
        with zip_member(archive, "pack.mcmeta", 1 << 20) as meta_file:
            meta = load_json(meta_file.read(1 << 20), "pack.mcmeta")
        functions = [m for m in members if m.filename.endswith(".mcfunction")]
        commands: Counter = Counter()
        budget = [inflate_limit()]
        for member in functions:
            check_time()
            with zip_member(archive, member) as opened:
                _commands(opened, commands, budget)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, zlib.error, OSError,
            NotImplementedError, RuntimeError, KeyError) as error:
        raise BadFileError(f"not a readable zip: {error}") from None
    pack = meta.get("pack", {}) if isinstance(meta, dict) else {}
    pack = pack if isinstance(pack, dict) else {}
    return FileInfo("datapack (.zip)", None, None, {}, {
        "pack_format": pack.get("pack_format"), "functions": len(functions),
        "commands": ", ".join(f"{name} {count}" for name, count in sorted(commands.items())) or "none"})


__all__ = ["NbtError", "read_datapack_info", "read_nbt_info"]
