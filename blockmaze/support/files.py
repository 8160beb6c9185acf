"""Bounded reads of an input file a user names (a theme, a mask, a maze document, a world): a
regular file only, opened once, never read past a limit."""

from __future__ import annotations

import os
import stat
from typing import BinaryIO

from ..errors import BadFileError


def open_regular(path: str | os.PathLike, what: str) -> BinaryIO:
    """``path`` opened once for reading, checked on the open descriptor to be a regular file (a
    FIFO, device, folder or socket is refused without blocking), else BadFileError.

    >>> open_regular("/dev/zero", "mask")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BadFileError: /dev/zero: a device, not a regular file (a mask must be one)
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) \
        | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as error:
        raise BadFileError(f"cannot read {what} {os.fsdecode(path)}: "
                           f"{error.strerror or error}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise BadFileError(f"{os.fsdecode(path)}: {_kind(mode)}, not a regular file "
                               f"(a {what} must be one)")
        if flags & getattr(os, "O_NONBLOCK", 0):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _kind(mode: int) -> str:
    return ("a folder" if stat.S_ISDIR(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "not a file")


def read_regular(path: str | os.PathLike, what: str, limit: int) -> bytes:
    """All of the regular file ``path`` (see :func:`open_regular`), at most ``limit`` bytes, else
    BadFileError (never reading more than ``limit + 1``)."""
    with open_regular(path, what) as file:
        try:
            data = file.read(limit + 1)
        except OSError as error:
            raise BadFileError(f"cannot read {what} {os.fsdecode(path)}: "
                               f"{error.strerror or error}") from None
    if len(data) > limit:
        raise BadFileError(f"{os.fsdecode(path)}: larger than the {limit} bytes a {what} may have")
    return data
