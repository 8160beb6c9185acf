"""A Bedrock world's LevelDB read in a cage: the database is opened only from a fresh folder of
regular files copied from the archive, each name checked first, and read by Mojang's LevelDB in
a worker process (:mod:`.leveldbworker`) that the reader ends at its time bound or a stop.

What is checked before LevelDB sees a byte (LevelDB's own names, as its ``db/filename.cc``
makes them): every member of ``db/`` is a plain name of the forms ``CURRENT``,
``MANIFEST-NNNNNN``, ``NNNNNN.log``, ``NNNNNN.ldb``, ``NNNNNN.sst`` (six digits or more), or the
run's own ``LOCK``, ``LOG``, ``LOG.old`` and ``NNNNNN.dbtmp`` (not copied: LevelDB makes its
own); no folder, no name twice. ``CURRENT`` holds one line, the name of a ``MANIFEST-NNNNNN``
file of the archive's ``db/``: LevelDB opens whatever ``CURRENT`` names, relative to the
folder, so ``../../etc/x``, ``/dev/zero`` or a FIFO would be opened as they are. Every other file
LevelDB opens it names itself, from a number, inside the folder. Files are written with
``O_EXCL | O_NOFOLLOW`` into a folder made for the read (mode 0700), so none is a link, a
device or a FIFO. The members inflate to at most the info limit in all, and the records LevelDB
hands back may hold at most that many bytes.

Source of the names and of how CURRENT is read: LevelDB's ``db/filename.cc`` (its file types:
log, lock, table, descriptor, current, temporary, info log) and ``VersionSet::Recover`` in
``db/version_set.cc``, which reads CURRENT, wants it to end in a newline and opens the folder
joined with the rest (https://github.com/google/leveldb; Mojang's fork, which amulet-leveldb
wraps, keeps both: https://github.com/Mojang/leveldb). Seen here with ``strace``: a CURRENT of
``../../../x/MANIFEST-000002`` made LevelDB open ``/tmp/blockmaze-info-…/db/../../../x/…``.

>>> db_name("MANIFEST-000002"), db_name("000005.ldb"), db_name("LOG")
('copy', 'copy', 'skip')
>>> db_name("../secret") is None, db_name("000005.exe") is None
(True, True)
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import shutil
import struct
import subprocess
import sys
import tempfile
from collections.abc import Generator, Iterator
from pathlib import Path

from ..errors import BadFileError, BlockmazeError
from .base import printable, zip_member
from .timebound import check_time, time_left

_COPIED = re.compile(r"CURRENT|MANIFEST-[0-9]{6,20}|[0-9]{6,20}\.(log|ldb|sst)")
_SKIPPED = re.compile(r"LOCK|LOG|LOG\.old|[0-9]{6,20}\.dbtmp")
_CURRENT = re.compile(rb"(MANIFEST-[0-9]{6,20})\n")
CURRENT_LIMIT = 64  # bytes: "MANIFEST-" and up to 20 digits and a newline
_FRAME = struct.Struct("<II")
_END, _FAILED = 0xFFFFFFFF, 0xFFFFFFFE
_PIECE = 1 << 20
FORMS = "CURRENT, MANIFEST-NNNNNN, NNNNNN.log, NNNNNN.ldb, NNNNNN.sst"


def db_name(name: str) -> str | None:
    """What becomes of a member of ``db/`` called ``name``: ``"copy"``, ``"skip"`` (a file of
    LevelDB's own run: its lock, its log of messages, a temporary) or None (not a name LevelDB
    makes: refused)."""
    if _COPIED.fullmatch(name):
        return "copy"
    return "skip" if _SKIPPED.fullmatch(name) else None


def leveldb_site() -> str | None:
    """The folder the ``leveldb`` package (amulet-leveldb) is found in, or None without it
    (nothing is imported)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("leveldb")
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    origin = Path(spec.origin).parent
    return str(origin.parent if spec.submodule_search_locations else origin)


@contextlib.contextmanager
def unpacked(archive, budget: int) -> Iterator[Path]:
    """The archive's ``db/`` checked (see the module docstring) and copied into a fresh folder,
    removed after the block; BadFileError naming the first member that is refused."""
    members, seen = [], set()
    for info in archive.infolist():
        check_time()
        if not info.filename.startswith("db/") or info.filename == "db/":
            continue
        name = info.filename[3:]
        kind = None if "/" in name.rstrip("/") or info.is_dir() else db_name(name)
        if kind is None:
            raise BadFileError(printable(f"{info.filename}: not a file LevelDB makes (db/ holds only "
                                         f"{FORMS}, no folders)"))
        if name in seen:
            raise BadFileError(printable(f"{info.filename} appears twice in the world"))
        seen.add(name)
        if kind == "copy":
            members.append(info)
    if sum(info.file_size for info in members) > budget:
        raise BadFileError("the world's db/ inflates to more than info reads (set "
                           "BLOCKMAZE_INFO_LIMIT to raise it)")
    if "CURRENT" not in seen:
        raise BadFileError("db/ has no CURRENT file: not a LevelDB")
    folder = Path(tempfile.mkdtemp(prefix="blockmaze-info-"))
    try:
        db = folder / "db"
        db.mkdir(mode=0o700)
        for info in members:
            _copy(archive, info, db / info.filename[3:])
        _check_current(db, seen)
        yield db
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _copy(archive, info, path: Path) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    with zip_member(archive, info) as source:
        try:
            with os.fdopen(os.open(path, flags, 0o600), "wb") as out:
                while piece := source.read(_PIECE):
                    check_time()
                    out.write(piece)
        except OSError as error:  # a full disk, a file-size limit: this machine's, not the world's
            raise BadFileError(f"cannot copy {info.filename} into {path.parent} to read it: "
                               f"{error.strerror or error}") from None


def _check_current(db: Path, names: set[str]) -> None:
    """CURRENT names a MANIFEST-NNNNNN file of the world's db/ (one line, nothing else)."""
    with open(db / "CURRENT", "rb") as file:
        text = file.read(CURRENT_LIMIT + 1)
    found = _CURRENT.fullmatch(text)
    if found is None or found[1].decode() not in names:
        shown = text[:CURRENT_LIMIT].decode("utf-8", "replace")
        raise BadFileError(printable(f"db/CURRENT names {shown!r}; it must name a MANIFEST-NNNNNN file "
                                     "of db/, on one line"))


def records(db: Path, site: str, budget: int) -> Generator[tuple[bytes, bytes], None, None]:
    """Every (key, value) of the LevelDB in ``db``, read by a worker process (LevelDB from
    ``site``); the worker is ended when the time bound passes, a stop arrives or the caller
    stops iterating. BadFileError when LevelDB refuses the database or its records hold more
    than ``budget`` bytes."""
    worker = Path(__file__).with_name("leveldbworker.py")
    seconds = time_left()
    try:
        process = subprocess.Popen(  # -I -S: nothing of the caller's folder, environment or site
            [sys.executable, "-I", "-S", str(worker), os.path.abspath(db), site, str(budget),
             str(3600.0 if seconds is None else seconds)],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=db, start_new_session=True)  # (its own session: a terminal's Ctrl-C is the reader's)
    except OSError as error:
        raise BlockmazeError(f"cannot start the process that reads db/ with LevelDB "
                             f"({sys.executable or 'no interpreter'}): {error.strerror or error}") from None
    output, said = process.stdout, process.stderr
    assert output is not None and said is not None  # (both piped)
    try:
        frames = _Frames(output.fileno())
        total = 0
        while True:
            key_length, value_length = _FRAME.unpack(frames.take(_FRAME.size, process))
            if key_length == _END:
                return
            if key_length == _FAILED:
                message = frames.take(min(value_length, 4096), process).decode("utf-8", "replace")
                raise BadFileError(printable(f"db/ is not a LevelDB info reads: {message}"))
            total += key_length + value_length
            if total > budget:
                raise BadFileError(f"the world's records hold more than the {budget} bytes info "
                                   "reads (set BLOCKMAZE_INFO_LIMIT to raise it)")
            yield frames.take(key_length, process), frames.take(value_length, process)
    finally:
        with contextlib.suppress(OSError):
            process.kill()
        process.wait()
        output.close()
        said.close()


class _Frames:
    """The worker's output, taken a given number of bytes at a time, waiting at most until the
    time bound (a stop signal raises in the wait)."""

    def __init__(self, fd: int):
        self.fd, self.buffer, self.at = fd, bytearray(), 0

    def take(self, count: int, process) -> bytes:
        while len(self.buffer) - self.at < count:
            check_time()
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if not ready:
                continue
            piece = os.read(self.fd, max(_PIECE, count))
            if not piece:
                raise BadFileError(_died(process))
            del self.buffer[:self.at]
            self.at = 0
            self.buffer += piece
        data = bytes(self.buffer[self.at:self.at + count])
        self.at += count
        return data


def _died(process) -> str:
    """The line for a worker that ended before its last frame."""
    code = process.wait()
    said = process.stderr.read(4096).decode("utf-8", "replace").strip().splitlines()
    if any("bad_alloc" in line for line in said):
        return ("LevelDB ran out of the memory info gives it (twice BLOCKMAZE_INFO_LIMIT and 512 "
                "MiB): a record of db/ inflates past what info reads")
    how = f"signal {-code}" if code < 0 else f"exit code {code}"
    return printable(f"LevelDB ended while reading db/ ({how}{': ' + said[-1] if said else ''})")
