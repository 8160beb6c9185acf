"""``info`` for pictures: PNG (its IHDR chunk), SVG (the ``<svg>`` element's size) and PDF (its
page tree's count, its pages' sizes and its title, read from the uncompressed objects).

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


PDF_MAGIC = b"%PDF-"
PDF_LIMIT = 64 << 20  # read at most this much of a PDF (a 100-page book is a few MiB)
_TREE = re.compile(rb"<<[^<>]{0,100000}?/Type\s*/Pages\b[^<>]{0,100000}?>>", re.S)
_COUNT = re.compile(rb"/Count\s+([0-9]{1,7})")
_BOX = re.compile(rb"/MediaBox\s*\[\s*(-?[0-9.]{1,12})\s+(-?[0-9.]{1,12})\s+(-?[0-9.]{1,12})"
                  rb"\s+(-?[0-9.]{1,12})\s*\]")
_TITLE = re.compile(rb"/Title\s*\(((?:[^()\\]|\\.){0,200})\)")


def read_pdf(file: BinaryIO) -> FileInfo:
    """A PDF's version, page count, page sizes (in millimetres) and title.

    >>> import io
    >>> text = b"%PDF-1.4 << /Count 2 /Type /Pages >> /MediaBox [0 0 595.2756 841.8898] /Title (Maze)"
    >>> read_pdf(io.BytesIO(text)).details["pages"]
    '2, 210 x 297 mm'
    """
    data = file.read(PDF_LIMIT)
    if not data.startswith(PDF_MAGIC):
        raise BadFileError("not a PDF (no %PDF- header)")
    counts = [int(m) for tree in _TREE.findall(data) for m in _COUNT.findall(tree)]
    if not counts:
        raise BadFileError("no page tree with a /Count in the PDF (damaged, or its objects "
                           "are compressed)")
    sizes = sorted({(round((float(c) - float(a)) * 25.4 / 72), round((float(d) - float(b)) * 25.4 / 72))
                    for a, b, c, d in _BOX.findall(data)})
    shown = ", ".join(f"{w} x {h} mm" for w, h in sizes[:4]) + (" ..." if len(sizes) > 4 else "")
    details: dict[str, object] = {"version": data[5:8].decode("ascii", "replace"),
                                  "pages": f"{max(counts)}" + (f", {shown}" if shown else "")}
    title = _TITLE.search(data)
    if title:
        details["title"] = title.group(1).decode("latin-1")
    return FileInfo("PDF document", details=details)


__all__ = ["read_pdf", "read_png", "read_svg"]
