"""What a Java world folder (or a .zip of one) holds: release, spawn, extent and block counts.

Reads ``level.dat`` and every ``region/r.X.Z.mca`` with the checking NBT reader of
:mod:`.nbtread`; a damaged file gives one BlockmazeError naming it. For ``blockmaze info``.

Bounded: every file is a regular file of the world's own, opened once (a FIFO, a device or a
link is refused), a region holds at most :data:`MAX_REGION` bytes and the info limit (its size
checked before it is read), each chunk inflates to at most :data:`MAX_CHUNK`,
two slots may not share sectors (1,024 slots aimed at one huge chunk), and the whole world
inflates to at most the info limit (``BLOCKMAZE_INFO_LIMIT``), zip members included.

Example
-------
>>> import tempfile, pathlib
>>> from blockmaze.materials import load_theme
>>> from blockmaze.export.minecraft.world import write_world
>>> folder = pathlib.Path(tempfile.mkdtemp()) / "Maze"
>>> write_world(np.ones((2, 3, 4), np.uint8), folder, load_theme(), terrain="void", y=0)
>>> print("\\n".join(summarize_world(folder)))
format: Java world (Maze)
minecraft: 1.20.4 (DataVersion 3700)
spawn: 2, 2, 0
extent: 1 x 1 chunks (x 0..0, z 0..0): 16 x 16 blocks
palette: 2 block states
  minecraft:air           98280
  minecraft:stone_bricks  24
"""

from __future__ import annotations

import os
import re
import struct
import zipfile
import zlib
from collections import Counter
from pathlib import Path

import numpy as np

from ..errors import BadFileError, BlockmazeError
from ..export.minecraft.anvil import block_bits
from ..export.minecraft.packing import unpack_longs
from ..export.minecraft.versions import RELEASES
from ..support.files import open_regular
from .base import open_zip, printable, zip_member
from .nbtread import NbtError, inflate_limit, read_nbt
from .nbtread import check_settings
from .timebound import check_time, time_bound

_REGION = re.compile(r"^r\.(-?\d+)\.(-?\d+)\.mca$")
MAX_CHUNK = 1 << 26
MAX_REGION = 8192 + 1024 * 255 * 4096  # a header and 1,024 chunks of 255 sectors (~1 GiB)
_PIECE = 1 << 24  # bytes of a world file read between checks of the time bound


def _files(path: Path) -> dict[str, bytes | Path]:
    """``level.dat`` and region files by their path inside the world."""
    if path.is_dir():
        if (path / "region").is_symlink():
            raise BlockmazeError("region is a link; info reads the world's own files, not what a "
                                 "link points to")
        found: dict[str, bytes | Path] = {"level.dat": path / "level.dat"}  # each opened once, as a regular file, by _read
        found.update({f"region/{p.name}": p for p in (path / "region").glob("r.*.mca")})
        return found
    with open_regular(path, "world zip") as opened, open_zip(opened) as archive:
        names = [n for n in archive.namelist() if n.endswith("level.dat")]
        if not names:
            raise BlockmazeError(f"{path}: no level.dat in the zip")
        root = names[0][: -len("level.dat")]
        budget = [inflate_limit()]
        found = {}
        for member in archive.infolist():
            check_time()
            n = member.filename
            if n.startswith(root) and (n.endswith("level.dat") or n.endswith(".mca")):
                if member.file_size > budget[0]:
                    raise BadFileError(f"{n} inflates to {member.file_size} bytes, more than the "
                                       f"{budget[0]} left of the info limit (BLOCKMAZE_INFO_LIMIT)")
                budget[0] -= member.file_size
                with zip_member(archive, member) as opened_member:
                    found[n[len(root):]] = opened_member.read(member.file_size + 1)
        return found


def _read(item: bytes | Path, name: str) -> bytes:
    """A world file's bytes: a zip member's as read, or a file of the folder's own (a link is
    refused: what it points to is outside the world), at most :data:`MAX_REGION` and the info
    limit, its size checked before any byte is read and the time bound between pieces."""
    if isinstance(item, bytes):
        return item
    if item.is_symlink():
        raise BlockmazeError(f"{name} is a link; info reads the world's own files, not what a "
                             "link points to")
    limit = min(MAX_REGION, inflate_limit())
    with open_regular(item, "world file") as opened:
        size = os.fstat(opened.fileno()).st_size
        if size > limit:
            raise BadFileError(f"{name} is {size} bytes, more than the {limit} info reads of a "
                               "world file (set BLOCKMAZE_INFO_LIMIT to raise it)")
        pieces = []
        while piece := opened.read(_PIECE):
            check_time()
            pieces.append(piece)
            size -= len(piece)
            if size < 0:
                raise BadFileError(f"{name} grew while info read it")
    return b"".join(pieces)


def region_chunks(data: bytes, name: str, budget: list[int] | None = None):
    """Yield ``(slot, chunk root)`` for every chunk of a region file's bytes; ``budget`` (a
    one-item list) is what the world may still inflate to, shared by its regions."""
    if len(data) < 8192:
        raise BlockmazeError(f"{name}: shorter than a region header")
    budget = [inflate_limit()] if budget is None else budget
    locations = np.frombuffer(data[:4096], dtype=">u4")
    used = np.zeros(len(data) // 4096 + 256, dtype=bool)  # sectors taken by a chunk so far
    for slot in np.flatnonzero(locations):
        check_time()
        offset, sectors = int(locations[slot]) >> 8, int(locations[slot]) & 0xFF
        start = offset * 4096
        if offset < 2 or start + 5 > len(data):
            raise BlockmazeError(f"{name}: chunk {slot} points outside the file")
        if used[offset:offset + max(sectors, 1)].any():
            raise BlockmazeError(f"{name}: chunk {slot} shares its sectors with another chunk; "
                                 "every slot has sectors of its own")
        used[offset:offset + max(sectors, 1)] = True
        length, compression = struct.unpack(">IB", data[start:start + 5])
        if compression != 2 or length < 1 or length + 4 > sectors * 4096:
            raise BlockmazeError(f"{name}: chunk {slot} has compression {compression} / length {length}")
        try:
            inflater = zlib.decompressobj()
            raw = inflater.decompress(data[start + 5:start + 4 + length], min(MAX_CHUNK, budget[0]) + 1)
            if len(raw) > min(MAX_CHUNK, budget[0]):
                raise BadFileError(f"{name}: chunk {slot} inflates to more than "
                                   f"{min(MAX_CHUNK, budget[0])} bytes (what a chunk, or what is "
                                   "left of the info limit BLOCKMAZE_INFO_LIMIT, allows)")
            budget[0] -= len(raw)
            yield int(slot), read_nbt(raw)[1]
        except (zlib.error, NbtError) as error:
            raise BlockmazeError(f"{name}: chunk {slot}: {error}") from None


def section_counts(section: dict) -> Counter:
    """Block-state counts of one section compound."""
    states = section["block_states"]
    names = [_state(entry) for entry in states["palette"]]
    if len(names) == 1:
        return Counter({names[0]: 4096})
    bits = block_bits(len(names))
    indices = unpack_longs(np.asarray(states["data"], dtype=np.int64), bits, 4096)
    if indices.max() >= len(names):
        raise BlockmazeError("a section's block index is outside its palette")
    counts = np.bincount(indices, minlength=len(names))
    out: Counter = Counter()
    for name, count in zip(names, counts, strict=True):
        out[name] += int(count)
    return out


def _state(entry: dict) -> str:
    from .minecraft import _state_name

    return _state_name(entry)


def is_world(path: str | Path) -> bool:
    """True for a world folder (it has ``level.dat``) or a .zip holding one.

    >>> is_world("/nonexistent")
    False
    """
    path = Path(path)
    if path.is_dir():
        return (path / "level.dat").is_file()
    if path.is_file() and zipfile.is_zipfile(path):
        try:
            with open_regular(path, "world zip") as opened, open_zip(opened) as archive:
                names = archive.namelist()
        except (BlockmazeError, zipfile.BadZipFile, OSError, EOFError, ValueError):
            return False  # not a world; the file readers say what it is not
        if "db/CURRENT" in names:  # a Bedrock world (.mcworld): a file format of its own
            return False
        return any(name.endswith("/level.dat") or name == "level.dat" for name in names)
    return False


def summarize_world(path: str | Path) -> list[str]:
    """Text lines describing a world folder or a .zip of one (see the module example)."""
    check_settings()  # (a bad setting is a usage error, not the world's)
    path = Path(path)
    if path.is_dir() and (path / "db").is_dir():  # a Bedrock world's folder
        from .bedrockworld import read_bedrock_folder

        try:
            with time_bound(None):
                return [printable(line) for line in read_bedrock_folder(path).lines()]
        except BlockmazeError as error:
            raise BadFileError(printable(f"{path}: {error}")) from None
    finished = []
    if path.is_dir():  # a run of --into killed after its journal: finished first, as --into would
        from ..export.minecraft.into import finish_unfinished

        if finish_unfinished(path):
            finished.append("note: finished an interrupted --into (its journal's renames replayed)")
    try:
        with time_bound(None):  # the errors below name the world
            return [printable(line) for line in _summary(path)] + finished
    except BlockmazeError as error:
        raise BadFileError(printable(f"{path}: {error}")) from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError, OSError,
            zipfile.BadZipFile) as error:
        raise BadFileError(printable(f"{path}: not a readable world ({type(error).__name__}: {error})")) from None
    except MemoryError:
        raise BadFileError(printable(f"{path}: the world needs more memory than is available")) from None


def _summary(path: Path) -> list[str]:
    """The summary lines of the world at ``path`` (errors raised as they come)."""
    files = _files(path)
    if "level.dat" not in files or (isinstance(files["level.dat"], Path) and not files["level.dat"].is_file()):
        raise BlockmazeError("no level.dat: not a world folder")
    budget = [inflate_limit()]
    data = read_nbt(_read(files["level.dat"], "level.dat"))[1]["Data"]
    dv = int(data["DataVersion"])
    names = [r.name for r in RELEASES.values() if r.data_version == dv]
    counts: Counter = Counter()
    chunks = []
    for member, item in sorted(files.items()):
        match = _REGION.match(member.rpartition("/")[2])
        if not match:
            continue
        for _slot, chunk in region_chunks(_read(item, member), member, budget):
            chunks.append((int(chunk["xPos"]), int(chunk["zPos"])))
            for section in chunk["sections"]:
                counts.update(section_counts(section))
    lines = [f"format: Java world ({data.get('LevelName', path.name)})",
             f"minecraft: {names[-1] if names else 'unknown release'} (DataVersion {dv})",
             f"spawn: {data['SpawnX']}, {data['SpawnY']}, {data['SpawnZ']}"]
    if chunks:
        xs, zs = [c[0] for c in chunks], [c[1] for c in chunks]
        cw, cl = max(xs) - min(xs) + 1, max(zs) - min(zs) + 1
        lines.append(f"extent: {cw} x {cl} chunks (x {min(xs)}..{max(xs)}, z {min(zs)}..{max(zs)}): "
                     f"{cw * 16} x {cl * 16} blocks")
    lines.append(f"palette: {len(counts)} block states")
    width = max((len(name) for name in counts), default=0)
    lines.extend(f"  {name:<{width}}  {count}" for name, count in
                 sorted(counts.items(), key=lambda item: (-item[1], item[0])))
    return lines
