"""Writing a file safely: to a temporary file in the target's folder, renamed into place at the end.

A failure at any point leaves no partial file and an existing file at the target untouched.
"""

from __future__ import annotations

import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Iterator

from ..errors import BlockmazeError

Target = str | os.PathLike | BinaryIO


@contextmanager
def open_target(target: Target) -> Iterator[BinaryIO]:
    """Yield a binary file to write ``target``: a path (written atomically) or an open binary file.

    The temporary file's ``target`` attribute is the final path, for writers that put companion
    files beside it (a tile map's tile set).

    Example
    -------
    >>> import io
    >>> with open_target(io.BytesIO()) as f:
    ...     _ = f.write(b"maze")
    """
    if hasattr(target, "write"):
        yield target
        return
    path = Path(target)
    folder = path.parent
    if path.is_dir():
        raise BlockmazeError(f"cannot write {path}: it is a folder; give a file name")
    if not folder.is_dir():
        raise BlockmazeError(f"cannot write {path}: the folder {folder} does not exist")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=folder)
    except OSError as error:
        raise BlockmazeError(f"cannot write {path}: {error.strerror or error}") from None
    try:
        with os.fdopen(handle, "wb") as file:
            file.target = path
            yield file
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, _file_mode(path))
        os.replace(temporary, path)
    except BaseException as error:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        if isinstance(error, OSError):
            raise BlockmazeError(f"cannot write {path}: {error.strerror or error}") from None
        raise


def _file_mode(path: Path) -> int:
    """The mode the finished file gets: the existing file's, else what the umask allows."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def target_path(file: BinaryIO) -> Path | None:
    """The path ``file`` ends up at, or None for an in-memory file (for writers of companion files).

    ``file.target`` (set by :func:`open_target`) when present, else a file opened by name.

    >>> import io; target_path(io.BytesIO()) is None
    True
    """
    target = getattr(file, "target", None)
    if isinstance(target, (str, os.PathLike)):
        return Path(target)
    name = getattr(file, "name", None)
    if isinstance(name, (str, os.PathLike)) and not str(name).startswith("<"):  # not <stdout>
        return Path(name)
    return None


def write_sidecar(folder: Path | None, name: str, data: bytes) -> None:
    """Write a companion file atomically into ``folder`` (nothing when there is no folder)."""
    if folder is None:
        return
    with open_target(folder / name) as out:
        out.write(data)
