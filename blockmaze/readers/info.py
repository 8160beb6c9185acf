"""``blockmaze info``: what a file blockmaze writes holds — format, version, size and counts.

Every format blockmaze writes is read (:mod:`blockmaze.readers`), in bounded memory and time:
only regular files are opened, only what is needed is read, piece by piece, and every declared
length is checked, so a truncated or hostile file gives one clear :class:`BadFileError` naming
the file, the formats tried and what was wrong — never a crash, a hang or a flood of memory.
Limits: ``BLOCKMAZE_INFO_LIMIT`` (see :func:`blockmaze.readers.nbtread.inflate_limit`).

The readers are the rows of :data:`READERS`: a title, the outputs of
:data:`blockmaze.export.FORMATS` whose files it reads (their suffixes), a test of a file's first
bytes and the read. A file is read by the rows its bytes fit, most likely first; its name only
picks one of them, never adds one. A file no row fits is refused in one line naming them all.
"""

from __future__ import annotations

import io
import os
import struct
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ..errors import BadFileError, BlockmazeError
from . import bedrockworld, meshes, pictures, tilemaps, voxels
from .base import FileInfo, file_size, load_json, printable, read_whole

HEAD = 1024
Opener = Callable[[], BinaryIO]


def _nbt(opener: Opener, name: str) -> FileInfo:
    from .minecraft import read_nbt_info

    return read_nbt_info(opener, _suffix(name))


def _datapack(opener: Opener, name: str) -> FileInfo:
    from .minecraft import read_datapack_info

    with opener() as file:
        return read_datapack_info(file)


def _json_document(opener: Opener, name: str) -> FileInfo:
    from .documents import maze_document_summary

    with opener() as file:
        data = read_whole(file, "a JSON file")
    document = load_json(data, "a JSON file")
    if isinstance(document, dict):
        if document.get("type") == "blockmaze-pieces":
            from .pieces import pieces_summary

            return pieces_summary(data)
        if document.get("format") == "blockmaze-tilemap":
            return tilemaps.tilejson_summary(document)
        if document.get("type") == "tilemap" or "tiledversion" in document:
            return tilemaps.tmj_summary(document)
        if "jsonVersion" in document and "levels" in document:
            return tilemaps.ldtk_summary(document)
    return maze_document_summary(document)


def _pieces_csv(opener: Opener, name: str) -> FileInfo:
    from .pieces import pieces_summary

    with opener() as file:
        return pieces_summary(read_whole(file, "a piece list"))


def _mtl_library(file: BinaryIO) -> FileInfo:
    text = read_whole(file, "a material library")
    names = [line.split(None, 1)[1].strip() for line in text.decode("utf-8", "replace").splitlines()
             if line.startswith("newmtl ") and len(line.split(None, 1)) == 2]
    if not names:
        raise BadFileError("no newmtl lines: not a material library")
    return FileInfo("Wavefront material library (.mtl)", details={"materials": ", ".join(names)})


def _plain(reader: Callable[[BinaryIO], FileInfo]) -> Callable[[Opener, str], FileInfo]:
    def read(opener: Opener, name: str) -> FileInfo:
        with opener() as file:
            return reader(file)
    return read


# --- what each reader's files look like: a test of their first bytes ---------------------------
# Each gives 2 (its format, by its magic), 1 (possibly its format: the magic another reader
# shares, or the weaker of two readings) or 0 (not its format). ``size``: the file's length, or
# None when it is not known.

LIKELY, POSSIBLE, NOT = 2, 1, 0
ZIP_MAGIC = b"PK\x03\x04"
GZIP_MAGIC = b"\x1f\x8b"


def _magic(signature: bytes, score: int = LIKELY) -> Callable[[bytes, int | None], int]:
    return lambda head, size: score if head.startswith(signature) else NOT


def _text(head: bytes) -> bytes:
    """The first bytes with a UTF-8 byte-order mark and leading white space taken off."""
    return head.lstrip(b"\xef\xbb\xbf \t\r\n")


def _gzip_or_nbt(head: bytes, size: int | None) -> int:
    return POSSIBLE if head.startswith(GZIP_MAGIC) else LIKELY if head[:1] == b"\x0a" else NOT


def _json(head: bytes, size: int | None) -> int:
    text = _text(head)
    return NOT if text[:1] != b"{" else POSSIBLE if b'"asset"' in text[:200] else LIKELY


def _gltf(head: bytes, size: int | None) -> int:
    return {LIKELY: POSSIBLE, POSSIBLE: LIKELY}.get(_json(head, size), NOT)


def _svg(head: bytes, size: int | None) -> int:
    return NOT if _text(head)[:1] != b"<" else LIKELY if b"<svg" in head else POSSIBLE


def _tmx(head: bytes, size: int | None) -> int:
    return {LIKELY: POSSIBLE, POSSIBLE: LIKELY}.get(_svg(head, size), NOT)


def _first_statement(head: bytes) -> bytes:
    """The first line of a text file that is not a ``#`` comment or blank (OBJ, MTL)."""
    for line in head.split(b"\n"):
        line = line.strip()
        if line and not line.startswith(b"#"):
            return line
    return b""


_OBJ_STATEMENTS = (b"v ", b"vt ", b"vn ", b"f ", b"o ", b"g ", b"s ", b"mtllib ", b"usemtl ")


def _obj(head: bytes, size: int | None) -> int:
    return LIKELY if _first_statement(head).startswith(_OBJ_STATEMENTS) else NOT


def _mtl(head: bytes, size: int | None) -> int:
    return LIKELY if _first_statement(head).startswith(b"newmtl ") else NOT


def _tscn_head(head: bytes, size: int | None) -> int:
    return LIKELY if head.startswith(b"[gd_scene") else NOT


def _tscn(opener: Opener, name: str) -> FileInfo:
    from .scenes import read_tscn

    with opener() as file:
        return read_tscn(file)


def _pieces_head(head: bytes, size: int | None) -> int:
    return LIKELY if head.startswith(b'# {"type": "blockmaze-pieces"') else NOT


def _ascii_map(head: bytes, size: int | None) -> int:
    return LIKELY if head[1:21] == b" blockmaze ascii map" else NOT  # (any comment character)


STL_HEADER = b"blockmaze binary STL"


def _stl(head: bytes, size: int | None) -> int:
    """A binary STL has no magic: its length is its triangle count's (or its header is ours)."""
    if head.startswith(STL_HEADER):
        return LIKELY
    if size is None or len(head) < 84:
        return NOT
    return POSSIBLE if size == 84 + 50 * struct.unpack_from("<I", head, 80)[0] else NOT


# --- the readers ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Reader:
    """One reader of ``blockmaze info``: its title, the outputs of :data:`blockmaze.export.FORMATS`
    whose files it reads (their suffixes are its suffixes), the test of a file's first bytes, and
    the function reading an opened file.

    >>> by_title("PNG").label
    'PNG (.png)'
    """

    title: str
    formats: tuple[str, ...]
    looks: Callable[[bytes, int | None], int]
    read: Callable[[Opener, str], FileInfo]

    @property
    def suffixes(self) -> tuple[str, ...]:
        from ..export import FORMATS

        return tuple(suffix for name in self.formats for suffix in FORMATS[name].suffixes)

    @property
    def label(self) -> str:
        return f"{self.title} ({', '.join(self.suffixes)})"


READERS: tuple[Reader, ...] = (
    Reader("Minecraft NBT", ("schem", "litematic", "structure", "schematic", "mcstructure"),
           _gzip_or_nbt, _nbt),
    Reader("datapack", ("datapack",), _magic(ZIP_MAGIC, POSSIBLE), _datapack),
    Reader("JSON", ("maze", "tmj", "tilemap", "ldtk", "pieces"), _json, _json_document),
    Reader("piece list CSV", ("pieces-csv",), _pieces_head, _pieces_csv),
    Reader("Godot scene", ("tscn",), _tscn_head, _tscn),
    Reader("glTF", ("gltf",), _gltf, _plain(meshes.read_gltf)),
    Reader("glTF binary", ("glb", "kit"), _magic(b"glTF"), _plain(meshes.read_glb)),
    Reader("OBJ", ("obj",), _obj, _plain(meshes.read_obj)),
    Reader("material library", ("mtl",), _mtl, _plain(_mtl_library)),
    Reader("PLY", ("ply",), _magic(b"ply\n"), _plain(meshes.read_ply)),
    Reader("STL", ("stl",), _stl, _plain(meshes.read_stl)),
    Reader("3MF", ("3mf",), _magic(ZIP_MAGIC, POSSIBLE), _plain(meshes.read_3mf)),
    Reader("Tiled map", ("tmx",), _tmx, _plain(tilemaps.read_tmx)),
    Reader("text map", ("ascii",), _ascii_map, _plain(tilemaps.read_ascii)),
    Reader("tcod arrays", ("npz",), _magic(ZIP_MAGIC, POSSIBLE), _plain(tilemaps.read_npz)),
    Reader("REXPaint", ("xp",), _magic(GZIP_MAGIC, POSSIBLE), _plain(tilemaps.read_xp)),
    Reader("PNG", ("png",), _magic(pictures.PNG_SIGNATURE), _plain(pictures.read_png)),
    Reader("SVG", ("svg",), _svg, _plain(pictures.read_svg)),
    Reader("PDF", ("pdf",), _magic(pictures.PDF_MAGIC), _plain(pictures.read_pdf)),
    Reader("MagicaVoxel", ("vox",), _magic(b"VOX "), _plain(voxels.read_vox)),
    Reader("Luanti schematic", ("mts",), _magic(b"MTSM"), _plain(voxels.read_mts)),
    Reader("Bedrock pack", ("mcpack",), _magic(ZIP_MAGIC, POSSIBLE), _plain(voxels.read_mcpack)),
    Reader("Bedrock world", ("mcworld",), _magic(ZIP_MAGIC, POSSIBLE),
           _plain(bedrockworld.read_mcworld)),
)
WORLDS = "Java world folders (level.dat, region/) or a .zip of one"


def by_title(title: str) -> Reader:
    """The reader of that title."""
    return next(reader for reader in READERS if reader.title == title)


def _suffix(name: str) -> str:
    return Path(name).suffix.lower()


def _named(name: str) -> Reader | None:
    """The reader whose suffix ends ``name`` (the longest such suffix), or None."""
    lowered = name.lower()
    named = [(len(suffix), reader) for reader in READERS for suffix in reader.suffixes
             if lowered.endswith(suffix)]
    return max(named, key=lambda pair: pair[0])[1] if named else None


def candidates(head: bytes, name: str, size: int | None = None) -> list[str]:
    """The formats a file may be, most likely first, from its first bytes (``size``: its length,
    for the formats without magic); its name picks one where they fit several. A name alone
    never makes a format: the bytes must fit it.

    >>> candidates(b"\\x89PNG\\r\\n\\x1a\\n", "x.bin")
    ['PNG (.png)']
    >>> candidates(b"\\x1f\\x8b\\x08", "x.bin"), candidates(b"\\x1f\\x8b\\x08", "x.xp")
    (['Minecraft NBT (.schem, .litematic, .nbt, .schematic, .mcstructure)', 'REXPaint (.xp)'], ['REXPaint (.xp)'])
    >>> candidates(b"root:x:0:0:root:/root:/bin/bash\\n", "passwd", 1024)
    []
    """
    scored = [(reader.looks(head, size), reader) for reader in READERS]
    fitting = [reader for score, reader in sorted(scored, key=lambda pair: -pair[0]) if score]
    named = _named(name)
    return [reader.label for reader in ([named] if named in fitting else fitting)]


def _inspect(opener: Opener, name: str) -> FileInfo:
    with opener() as file:
        head = file.read(HEAD)
        size = file_size(file)
    tried = candidates(head, name, size)
    if not tried:
        raise BadFileError(f"{printable(name)}: not a file blockmaze reads: its first bytes fit none "
                           f"of the formats info reads: {', '.join(r.label for r in READERS)}; and {WORLDS}")
    labels = {reader.label: reader for reader in READERS}
    problems = []
    for label in tried:
        try:
            return labels[label].read(opener, name)
        except BlockmazeError as error:
            problems.append(str(error))
        except (KeyError, TypeError, ValueError, IndexError, OverflowError, struct.error,
                UnicodeDecodeError, EOFError, AttributeError) as error:
            problems.append(f"malformed ({type(error).__name__}: {error})")
        except RecursionError:
            problems.append("nested too deeply")
        except MemoryError:
            problems.append("needs more memory than is available")
    also = f" (also tried {', '.join(tried[1:])}: {'; '.join(problems[1:])})" if len(tried) > 1 else ""
    raise BadFileError(printable(" ".join(f"{name}: read as {tried[0]}: {problems[0]}{also}".split())))


def inspect_bytes(data: bytes, name: str = "file") -> FileInfo:
    """Summarise the bytes of a file blockmaze writes; BadFileError if they are not one.

    >>> inspect_bytes(b"; blockmaze ascii map 3x1\\n; legend: glyph at column 2\\n#.#\\n", "m.txt").details["size"]
    '3 x 1 tiles (width x height)'
    """
    from .nbtread import check_settings

    check_settings()
    return _inspect(lambda: io.BytesIO(data), name)


def _open_regular(path: Path) -> tuple[Opener, BinaryIO]:
    """The file opened once (a regular file, checked on its descriptor) and an opener giving each
    reader a fresh handle on that same open file, from its start (the path is never reopened)."""
    from ..support.files import open_regular

    opened = open_regular(path, "file")

    def opener() -> BinaryIO:
        os.lseek(opened.fileno(), 0, os.SEEK_SET)
        return os.fdopen(os.dup(opened.fileno()), "rb")
    return opener, opened


def inspect_file(path: str | Path) -> FileInfo:
    """Summarise a file blockmaze writes.

    Example
    -------
    >>> import tempfile, os, blockmaze as bm
    >>> folder = tempfile.mkdtemp()
    >>> bm.write(bm.extrude(bm.to_blocks(bm.generate((2, 3), rng=1))), os.path.join(folder, "m.schem"))
    >>> inspect_file(os.path.join(folder, "m.schem")).size
    (7, 4, 5)
    """
    from .nbtread import check_settings
    from .timebound import time_bound

    check_settings()
    path = Path(path)
    if path.is_dir():  # (jobs reads world folders before asking here)
        raise BadFileError(printable(f"{path}: a folder, but not a world folder: info reads a Java "
                                     "world folder, which holds level.dat (and region/r.X.Z.mca "
                                     "files), and files blockmaze writes"))
    opener, opened = _open_regular(path)
    try:
        with opened, time_bound(None):  # (_inspect's messages name the file)
            return _inspect(opener, path.name)
    except OSError as error:
        raise BadFileError(printable(f"cannot read {path}: {error.strerror or error}")) from None


__all__ = ["FileInfo", "candidates", "inspect_bytes", "inspect_file"]
