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


def zip_entry(name: str, stored: bool = False) -> zipfile.ZipInfo:
    """A member's header that says nothing of this machine: the fixed time, a Unix file of mode
    0644, deflated (or ``stored`` as it is).

    >>> entry = zip_entry("a.txt", stored=True)
    >>> entry.date_time, entry.compress_type == zipfile.ZIP_STORED, oct(entry.external_attr >> 16)
    ((1980, 1, 1, 0, 0, 0), True, '0o644')
    """
    info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
    info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    info.create_system = 3
    info.external_attr = 0o644 << 16
    return info


def write_zip(file: BinaryIO, files: dict[str, bytes | memoryview], level: int = 6, *,
              stored: bool = False, sort: bool = True) -> None:
    """Write ``files`` (name -> bytes, or a memoryview: no copy) as a zip of :func:`zip_entry`
    members, deflated at ``level`` (or ``stored``), names in order (``sort=False``: as given)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(files) if sort else files:
            archive.writestr(zip_entry(name, stored), files[name], compresslevel=level)
    file.write(buffer.getvalue())
