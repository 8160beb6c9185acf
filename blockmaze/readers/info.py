"""``blockmaze info``: what a file blockmaze writes holds — format, version, size and counts.

Every format blockmaze writes is read (:mod:`blockmaze.readers`), in bounded memory and time:
only regular files are opened, only what is needed is read, piece by piece, and every declared
length is checked, so a truncated or hostile file gives one clear :class:`BadFileError` naming
the file, the formats tried and what was wrong — never a crash, a hang or a flood of memory.
Limits: ``BLOCKMAZE_INFO_LIMIT`` (see :func:`blockmaze.readers.nbtread.inflate_limit`).
"""

from __future__ import annotations

import io
import os
import struct
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from ..errors import BadFileError, BlockmazeError
from . import bedrockworld, meshes, pictures, tilemaps, voxels
from .base import FileInfo, load_json, printable, read_whole

HEAD = 1024
Opener = Callable[[], BinaryIO]


def _nbt(opener: Opener, name: str) -> FileInfo:
    from .minecraft import read_nbt_info

    return read_nbt_info(opener, _suffix(name))


def _datapack(opener: Opener, name: str) -> FileInfo:
    from .minecraft import read_datapack_info

    with opener() as file:
        return read_datapack_info(file)


def _json(opener: Opener, name: str) -> FileInfo:
    from .documents import maze_document_summary

    with opener() as file:
        document = load_json(read_whole(file, "a JSON file"), "a JSON file")
    if isinstance(document, dict):
        if document.get("format") == "blockmaze-tilemap":
            return tilemaps.tilejson_summary(document)
        if document.get("type") == "tilemap" or "tiledversion" in document:
            return tilemaps.tmj_summary(document)
        if "jsonVersion" in document and "levels" in document:
            return tilemaps.ldtk_summary(document)
    return maze_document_summary(document)


def _mtl(file: BinaryIO) -> FileInfo:
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


READERS: dict[str, Callable[[Opener, str], FileInfo]] = {
    "Minecraft NBT (.schem, .litematic, .nbt, .schematic, .mcstructure)": _nbt,
    "datapack (.zip)": _datapack,
    "JSON (maze document, .tmj, .tilemap.json)": _json,
    "glTF (.gltf)": _plain(meshes.read_gltf),
    "glTF binary (.glb)": _plain(meshes.read_glb),
    "OBJ (.obj)": _plain(meshes.read_obj),
    "material library (.mtl)": _plain(_mtl),
    "PLY (.ply)": _plain(meshes.read_ply),
    "STL (.stl)": _plain(meshes.read_stl),
    "3MF (.3mf)": _plain(meshes.read_3mf),
    "Tiled map (.tmx)": _plain(tilemaps.read_tmx),
    "text map (.txt)": _plain(tilemaps.read_ascii),
    "tcod arrays (.npz)": _plain(tilemaps.read_npz),
    "REXPaint (.xp)": _plain(tilemaps.read_xp),
    "PNG (.png)": _plain(pictures.read_png),
    "SVG (.svg)": _plain(pictures.read_svg),
    "MagicaVoxel (.vox)": _plain(voxels.read_vox),
    "Luanti schematic (.mts)": _plain(voxels.read_mts),
    "Bedrock pack (.mcpack)": _plain(voxels.read_mcpack),
    "Bedrock world (.mcworld)": _plain(bedrockworld.read_mcworld),
}
_BY_SUFFIX = {".schem": "Minecraft", ".litematic": "Minecraft", ".nbt": "Minecraft",
              ".schematic": "Minecraft", ".mcstructure": "Minecraft", ".zip": "datapack",
              ".json": "JSON", ".tmj": "JSON", ".ldtk": "JSON", ".gltf": "glTF (", ".glb": "glTF binary",
              ".obj": "OBJ", ".mtl": "material", ".ply": "PLY", ".stl": "STL", ".3mf": "3MF",
              ".tmx": "Tiled", ".txt": "text", ".npz": "tcod", ".xp": "REXPaint", ".png": "PNG",
              ".svg": "SVG", ".vox": "MagicaVoxel", ".mts": "Luanti", ".mcpack": "Bedrock pack",
              ".mcworld": "Bedrock world"}


def _suffix(name: str) -> str:
    return Path(name).suffix.lower()


def _label(prefix: str) -> str:
    return next(label for label in READERS if label.startswith(prefix))


def candidates(head: bytes, name: str) -> list[str]:
    """The formats a file may be, most likely first: from its first bytes, then its suffix.

    >>> candidates(b"\\x89PNG\\r\\n\\x1a\\n", "x.bin")
    ['PNG (.png)']
    >>> candidates(b"\\x1f\\x8b\\x08", "x.bin"), candidates(b"\\x1f\\x8b\\x08", "x.xp")
    (['Minecraft NBT (.schem, .litematic, .nbt, .schematic, .mcstructure)', 'REXPaint (.xp)'], ['REXPaint (.xp)'])
    """
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    by_magic = []
    if head[:2] == b"\x1f\x8b":
        by_magic = ["Minecraft", "REXPaint"]
    elif head[:4] == b"PK\x03\x04":
        by_magic = ["datapack", "3MF", "tcod", "Bedrock pack", "Bedrock world"]
    elif head[:8] == pictures.PNG_SIGNATURE:
        by_magic = ["PNG"]
    elif head[:4] == b"VOX ":
        by_magic = ["MagicaVoxel"]
    elif head[:4] == b"MTSM":
        by_magic = ["Luanti"]
    elif head[:4] == b"glTF":
        by_magic = ["glTF binary"]
    elif head[:4] == b"ply\n":
        by_magic = ["PLY"]
    elif text[:1] == b"{":
        by_magic = ["glTF (", "JSON"] if b'"asset"' in text[:200] else ["JSON", "glTF ("]
    elif text[:1] == b"<":
        by_magic = ["SVG", "Tiled"] if b"<svg" in head else ["Tiled", "SVG"]
    elif head[:1] == b"\x0a":
        by_magic = ["Minecraft"]
    elif head[:1] == b";":
        by_magic = ["text"]
    elif head[:7] == b"newmtl " or head.startswith(b"# blockmaze") and b"newmtl" in head:
        by_magic = ["material"]
    elif head[:2] in (b"v ", b"# ", b"o ", b"mt"):
        by_magic = ["OBJ"]
    order = by_magic[:]
    hint = _BY_SUFFIX.get(_suffix(name))
    if hint and hint in order:
        order = [hint]  # name and first bytes agree: that format alone
    elif hint and not by_magic:
        order = [hint]
    if not order and len(head) >= 84:
        order = ["STL"]  # binary STL has no magic: its length is checked
    return [_label(prefix) for prefix in order]


def _inspect(opener: Opener, name: str) -> FileInfo:
    with opener() as file:
        head = file.read(HEAD)
    tried = candidates(head, name)
    if not tried:
        raise BadFileError(f"{printable(name)}: not a file blockmaze writes; its first bytes and its name match "
                           f"none of: {', '.join(READERS)}")
    problems = []
    for label in tried:
        try:
            return READERS[label](opener, name)
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
    opener, opened = _open_regular(path)
    try:
        with opened, time_bound(None):  # (_inspect's messages name the file)
            return _inspect(opener, path.name)
    except OSError as error:
        raise BadFileError(printable(f"cannot read {path}: {error.strerror or error}")) from None


__all__ = ["FileInfo", "candidates", "inspect_bytes", "inspect_file"]
