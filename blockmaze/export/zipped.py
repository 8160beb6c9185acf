"""Zip archives with the same bytes for the same files: fixed time stamps, sorted names.

Example
-------
>>> import io, zipfile
>>> out = io.BytesIO()
>>> write_zip(out, {"b.txt": b"2", "a.txt": b"1"})
>>> zipfile.ZipFile(out).namelist()
['a.txt', 'b.txt']
"""

from __future__ import annotations

import io
import zipfile
from typing import BinaryIO

ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can say


def write_zip(file: BinaryIO, files: dict[str, bytes | memoryview], level: int = 6) -> None:
    """Write ``files`` (name -> bytes, or a memoryview: no copy) as a deflated zip, names in
    order, times fixed."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[name], compresslevel=level)
    file.write(buffer.getvalue())
