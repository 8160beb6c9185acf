"""``info`` for pictures: PNG (its IHDR chunk) and SVG (the ``<svg>`` element's size).

Example
-------
>>> import io
>>> read_svg(io.BytesIO(b'<svg xmlns="http://www.w3.org/2000/svg" width="70" height="50">')).details
{'size': '70 x 50 pixels (width x height)'}
"""

from __future__ import annotations

import re
import struct
import zlib
from typing import BinaryIO

from ..errors import BadFileError
from .base import FileInfo

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_COLOUR_TYPES = {0: "grey", 2: "RGB", 3: "palette", 4: "grey + alpha", 6: "RGBA"}


def read_png(file: BinaryIO) -> FileInfo:
    """Width, height and colour type from a PNG's header (its CRC checked)."""
    head = file.read(33)
    if len(head) < 33 or head[:8] != PNG_SIGNATURE or head[12:16] != b"IHDR":
        raise BadFileError("not a PNG (no signature and IHDR chunk)")
    width, height, depth, colour = struct.unpack(">IIBB", head[16:26])
    if struct.unpack(">I", head[29:33])[0] != zlib.crc32(head[12:29]):
        raise BadFileError("the PNG header chunk is damaged (CRC mismatch)")
    return FileInfo("PNG picture", details={
        "size": f"{width} x {height} pixels (width x height)",
        "colour": f"{_COLOUR_TYPES.get(colour, f'type {colour}')}, {depth}-bit"})


_SVG = re.compile(rb"<svg\b[^>]*>", re.S)
_NUMBER = r'="([0-9.]+)(?:px)?"'


def read_svg(file: BinaryIO) -> FileInfo:
    """The size of an SVG picture, from its ``<svg>`` element in the first 64 KiB."""
    head = file.read(1 << 16)
    found = _SVG.search(head)
    if not found:
        raise BadFileError("no <svg> element in the first 64 KiB: not an SVG picture")
    tag = found.group(0).decode("utf-8", "replace")
    width, height = (re.search(r"\b" + name + _NUMBER, tag) for name in ("width", "height"))
    details: dict[str, object] = {"size": "not given"}
    if width and height:
        details["size"] = f"{width.group(1)} x {height.group(1)} pixels (width x height)"
    return FileInfo("SVG picture", details=details)


__all__ = ["read_png", "read_svg"]
