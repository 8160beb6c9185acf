"""Writing files safely: all files of a run staged under temporary names, renamed at the end.

A *transaction* collects every file a run writes (a map and its tile set, an OBJ and its MTL,
the levels of a dungeon, ``--split`` tiles): each is written to a temporary
``.blockmaze-PID-xxxxxxxx.part`` file beside its target (short, so a 245-character target name
still has room) and renamed into place only when all of them are written. A failure (or a stop
signal) removes the temporaries and leaves the previous files as they were. A stop signal
arriving during the renames waits for them to finish (:mod:`blockmaze.support.stops` says what
each signal does when), so a run stops with the old set or the new.
The first file staged in a folder removes what killed runs left there: files and folders with
the staged naming whose process is gone and that are older than this run. One run never writes
one path twice: a companion file (an ``.mtl``, a tile set) that would land on another output of
the run is refused.

Where a target is aimed:

- a regular file (or a new name): temporary beside it, renamed; the old file's mode is kept;
  a file nobody may write (no write bit, or not writable by us) is refused;
- a symlink: followed, its target written (the link stays);
- a character device or FIFO (``/dev/null``, ``/dev/stdout``, a pipe): written directly, no
  rename, no companion files; a block device or socket is refused;
- a folder, a missing folder: refused with a clear message;
- :data:`STDOUT` (the CLI's ``-o -``): buffered, then written to standard output when the run
  succeeds; formats that write companion files are refused, and so is binary data when standard
  output is a terminal.

Example
-------
>>> import io, tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as folder:
...     with transaction():
...         for name in ("a.txt", "b.txt"):
...             with open_target(pathlib.Path(folder, name)) as f:
...                 _ = f.write(b"maze")
...     sorted(p.name for p in pathlib.Path(folder).iterdir())
['a.txt', 'b.txt']
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import sys
import re
import threading
import time
import weakref
from pathlib import Path
from typing import BinaryIO, cast
from collections.abc import Callable, Iterator

from ..errors import BlockmazeError, OutputError
from ..support import stops


class _StandardOutput:
    """The target ``-o -`` names: standard output, written when the run succeeds."""

    def __repr__(self) -> str:
        return "STDOUT"

    def __fspath__(self) -> str:
        return "-"


STDOUT = _StandardOutput()
PathLike = str | os.PathLike
Target = PathLike | BinaryIO
# where each file open_target yields ends up (None: nowhere to put a companion file beside it)
_FINAL: weakref.WeakKeyDictionary[BinaryIO, Path | None] = weakref.WeakKeyDictionary()


def is_file_object(target: object) -> bool:
    """Whether ``target`` is an open file (written directly) rather than a path or STDOUT.

    >>> is_file_object(io.BytesIO()), is_file_object("maze.schem"), is_file_object(STDOUT)
    (True, False, False)
    """
    return hasattr(target, "write")


STAGED_PREFIX = ".blockmaze-"
_STAGED = re.compile(r"^\.blockmaze-(\d+)-[A-Za-z0-9_]+\.part$")
RUN_STARTED = time.time()


class Transaction:
    """Files written so far in one run: temporaries, and those ready to be renamed into place."""

    def __init__(self, to_stdout: bool = False):
        self.temporaries: list[str] = []
        self.staged: list[tuple[str, Path]] = []
        self.to_stdout = to_stdout
        self.stdout_data: bytes | None = None
        self.targets: set[str] = set()  # every path this run writes, to refuse writing one twice
        self.companions: list[Path] = []  # files written beside a main output (an OBJ's .mtl)
        self.swept: set[str] = set()  # folders whose leftover staged files were removed
        # called with the run as the renames begin (stop signals deferred): it writes a journal
        # of them and takes the staged files it names out of ``temporaries``, so a failure from
        # then on leaves them for the journal to finish (``--into``)
        self.journal: Callable[[Transaction], None] | None = None
        self.settled: list[Callable[[], None]] = []  # called once every file is renamed

    def claim(self, path: Path) -> None:
        """Refuse a second file of this run at ``path`` (a companion over the main output)."""
        key = os.path.normcase(os.path.abspath(path))
        if key in self.targets:
            raise BlockmazeError(f"cannot write {path}: this run writes another of its files "
                                 "there already (a companion file never replaces the main output); "
                                 "choose another name")
        self.targets.add(key)

    def commit(self) -> None:
        """Rename every staged file into place (stop signals deferred: one taken during the
        renames lets them finish, then raises ``stops.Interrupted`` naming the files written),
        then send standard output."""
        with stops.deferred() as written:
            if self.journal is not None:
                self.journal(self)
            for temporary, final in self.staged:
                os.replace(temporary, final)
                written.append(final)
            self.staged.clear()
            self.temporaries.clear()
            for settle in self.settled:
                settle()
        if self.stdout_data is not None:
            data, self.stdout_data = self.stdout_data, None
            _send_to_stdout(data)

    def abort(self) -> None:
        """Remove every temporary file written; targets keep their previous contents."""
        with stops.deferred():
            for temporary in self.temporaries:
                _remove(temporary)
            self.temporaries.clear()
            self.staged.clear()
            self.stdout_data = None


_state = threading.local()
_open_runs: set[Transaction] = set()  # every thread's, removed if a stop ends the process by force
# a temporary is made and noted under this lock; the stop watcher's clean-up takes it and keeps
# it, so no temporary is made between its look at the runs and the end of the process
_making = threading.Lock()


def _remove_open_temporaries() -> None:
    """Remove every open run's temporaries (the stop watcher's clean-up, before it ends the
    process): once one being made is noted, and with no more made after."""
    _making.acquire(timeout=5)  # (kept: the process ends next)
    for run in list(_open_runs):
        for temporary in list(run.temporaries):
            _remove(temporary)


def _remove(temporary: str) -> None:
    """Remove a staged file, or a staged folder with what it holds; errors are ignored."""
    if os.path.isdir(temporary) and not os.path.islink(temporary):
        import shutil

        shutil.rmtree(temporary, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


stops.at_forced_exit(_remove_open_temporaries)


def current_transaction() -> Transaction | None:
    """The transaction files written now join, or None."""
    return getattr(_state, "transaction", None)


@contextlib.contextmanager
def transaction(to_stdout: bool = False, own: bool = False) -> Iterator[Transaction]:
    """Every file written inside the block is renamed into place at its end, or none is.

    Nested blocks join the outermost one, unless ``own``: then the block is a transaction of its
    own, committed at its end (``--into`` renames a world's files while it holds the world's lock).
    """
    outer = current_transaction()
    if outer is not None and not own:
        yield outer
        return
    run = _state.transaction = Transaction(to_stdout)
    _open_runs.add(run)
    try:
        yield run
        run.commit()
    except BaseException:
        run.abort()
        raise
    finally:
        _state.transaction = outer
        _open_runs.discard(run)


@contextlib.contextmanager
def open_target(target: Target) -> Iterator[BinaryIO]:
    """Yield a binary file to write ``target``: a path (staged in the current transaction, or
    one of its own), :data:`STDOUT`, or an open binary file (written directly).

    :func:`target_path` of the yielded file is the final path (None when there is no folder to
    put companion files in), for writers that put companion files beside it.

    >>> with open_target(io.BytesIO()) as f:
    ...     _ = f.write(b"maze")
    """
    if is_file_object(target):
        yield cast(BinaryIO, target)
        return
    if target is STDOUT:
        with transaction(to_stdout=True) as run:
            if not run.to_stdout:
                raise BlockmazeError("standard output (-o -) cannot be one of several files")
            buffer = io.BytesIO()
            _FINAL[buffer] = Path("-")
            yield buffer
            run.stdout_data = (run.stdout_data or b"") + buffer.getvalue()
        return
    path, in_place = _resolve(Path(cast(PathLike, target)))
    with transaction() as run:
        run.claim(path)
        if in_place:  # a character device or FIFO
            try:
                with open(path, "wb") as file:
                    _FINAL[file] = None
                    yield file
            except OSError as error:
                raise OutputError(f"cannot write {path}: {error.strerror or error}") from None
            return
        _sweep(run, path.parent)
        import tempfile  # (here, as shutil below: the two add about 4 ms to every start)

        handle = -1
        try:
            with stops.deferred(), _making:  # made and noted as one step
                handle, temporary = tempfile.mkstemp(prefix=staged_prefix(), suffix=".part",
                                                     dir=path.parent)
                run.temporaries.append(temporary)
        except OSError as error:
            raise OutputError(f"cannot write {path}: {error.strerror or error}") from None
        except KeyboardInterrupt:  # a stop deferred while it was made (the run removes it)
            if handle >= 0:
                os.close(handle)
            raise
        try:
            with os.fdopen(handle, "wb") as file:
                _FINAL[file] = path
                yield file
                file.flush()
                os.fsync(file.fileno())
            os.chmod(temporary, _file_mode(path))
        except OSError as error:
            raise OutputError(f"cannot write {path}: {error.strerror or error}") from None
        run.staged.append((temporary, path))


@contextlib.contextmanager
def staged_folder(final: Path) -> Iterator[Path]:
    """A new folder beside ``final`` to write a result that is a folder in (a world save),
    renamed to ``final`` (absent, or an empty folder) at the block's end. It is made and noted as
    one step, as a staged file is, so a stop, one that ends the process by force too, removes it
    with what it holds, and nothing is at ``final`` until it is whole.

    >>> import tempfile
    >>> final = Path(tempfile.mkdtemp()) / "World"
    >>> with staged_folder(final) as folder:
    ...     _ = (folder / "level.dat").write_bytes(b"maze")
    >>> sorted(p.name for p in final.iterdir())
    ['level.dat']
    """
    import tempfile

    with transaction() as run:
        run.claim(final)
        _sweep(run, final.parent)
        try:
            with stops.deferred(), _making:  # made and noted as one step
                folder = tempfile.mkdtemp(prefix=staged_prefix(), suffix=".part", dir=final.parent)
                run.temporaries.append(folder)
            os.chmod(folder, 0o777 & ~_umask())  # (mkdtemp makes it for its owner alone)
        except OSError as error:
            raise OutputError(f"cannot write {final}: {error.strerror or error}") from None
        yield Path(folder)
        try:
            with stops.deferred(), _making:
                if final.is_dir():
                    final.rmdir()
                os.replace(folder, final)
                run.temporaries.remove(folder)
        except OSError as error:
            raise OutputError(f"cannot write {final}: {error.strerror or error}") from None


def staged_prefix() -> str:
    """The start of a staged file's (or world folder's) name: ``.blockmaze-PID-``.

    >>> staged_prefix() == f".blockmaze-{os.getpid()}-"
    True
    """
    return f"{STAGED_PREFIX}{os.getpid()}-"


def _sweep(run: Transaction, folder: Path) -> None:
    """Once per run and folder: remove what killed runs left there (see the module docstring)."""
    key = os.path.abspath(folder)
    if key in run.swept:
        return
    run.swept.add(key)
    remove_leftovers(folder)


def remove_leftovers(folder: str | os.PathLike, any_age: bool = False) -> list[str]:
    """Remove staged files and folders of runs that are gone (by their name's process id) and
    that were last changed before this run started (``any_age``: whenever, for a caller that
    holds a lock no other run writes there without); return their names. Errors are ignored.

    >>> import tempfile
    >>> remove_leftovers(tempfile.mkdtemp())
    []
    """
    removed: list[str] = []
    try:
        entries = list(os.scandir(os.fspath(folder)))
    except OSError:
        return removed
    for entry in entries:
        match = _STAGED.match(entry.name)
        if not match or int(match.group(1)) == os.getpid() or _alive(int(match.group(1))):
            continue
        try:
            if not any_age and entry.stat(follow_symlinks=False).st_mtime >= RUN_STARTED:
                continue
            if entry.is_dir(follow_symlinks=False):
                import shutil

                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
            removed.append(entry.name)
        except OSError:
            continue
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def derived_base(target: Target, what: str) -> Path:
    """The regular file (or new name) beside which a run writes files of derived names (``--split``
    tiles, levels, tile sets); refuses standard output, streams, devices, FIFOs and folders.

    >>> derived_base("/dev/null", "tiles")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: /dev/null is not a regular file: tiles are written beside a file name; give one (not a device, FIFO or -)
    """
    if is_file_object(target) or target is STDOUT:
        raise BlockmazeError(f"{what} are files of their own: give a file name (-o NAME), not "
                             "standard output or a stream")
    path = Path(cast(PathLike, target))
    try:
        info = os.stat(path)
    except OSError:
        return path
    if not stat.S_ISREG(info.st_mode):
        raise BlockmazeError(f"{path} is not a regular file: {what} are written beside a file "
                             "name; give one (not a device, FIFO or -)")
    return path


def _resolve(path: Path) -> tuple[Path, bool]:
    """The path to write for ``path`` (symlinks followed) and whether it is written in place (a
    device or FIFO) rather than replaced by rename (a regular file or a new name). Refuses the
    rest with a message."""
    if "\0" in str(path):
        raise BlockmazeError(f"cannot write {str(path)!r}: a file name cannot hold a NUL character")
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise OutputError(f"cannot write {path}: {error.strerror or error}") from None
    if info is None:
        if not path.parent.is_dir():
            raise OutputError(f"cannot write {path}: the folder {path.parent} does not exist")
        return path, False
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        raise BlockmazeError(f"cannot write {path}: it is a folder; give a file name")
    if stat.S_ISREG(mode):
        if not mode & 0o222 or not os.access(path, os.W_OK):
            raise OutputError(f"cannot write {path}: the file is read-only; remove it, make it "
                                 "writable (chmod u+w) or choose another name")
        if not os.access(path.parent, os.W_OK | os.X_OK):
            raise OutputError(f"cannot write {path}: the folder {path.parent} is not writable")
        return path, False
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return path, True
    what = "a block device (a disk)" if stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) \
        else "not a regular file"
    raise BlockmazeError(f"cannot write {path}: it is {what}; give a file name")


def _file_mode(path: Path) -> int:
    """The mode the finished file gets: the existing file's, else what the umask allows."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return 0o666 & ~_umask()


def _umask() -> int:
    """The process's umask (reading it means setting it: put back at once)."""
    umask = os.umask(0)
    os.umask(umask)
    return umask


def _send_to_stdout(data: bytes) -> None:
    """Write a finished output to standard output (refusing binary data for a terminal)."""
    stream = sys.stdout
    if stream.isatty() and not _is_text(data):
        raise BlockmazeError("this format is binary and standard output is a terminal: "
                             "redirect it (-o - > FILE, or | program) or give -o FILE")
    try:
        stream.flush()
        binary = getattr(stream, "buffer", None)
        if binary is None:
            stream.write(data.decode("utf-8", "replace"))
            return
        binary.flush()
        try:
            fd = binary.fileno()
        except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation: a test's stream
            fd = None
        if fd is None:
            write_all(binary.write, data)
            binary.flush()
        else:
            write_all(lambda piece: os.write(fd, piece), data)
    except OSError as error:
        raise OutputError(f"cannot write to standard output: {error.strerror or error}") from None


def write_all(write, data: bytes, piece: int = 1 << 20) -> None:
    """Call ``write`` (returning the count written, as os.write) until every byte of ``data`` is
    written; OSError when it writes nothing (a short write never passes as success).

    >>> out = io.BytesIO(); write_all(out.write, b"maze" * 3, piece=5); out.getvalue()
    b'mazemazemaze'
    """
    view, done = memoryview(data), 0
    while done < len(view):
        count = write(view[done:done + piece])
        if count is None:  # a non-blocking stream that took nothing
            count = 0
        if count <= 0:
            raise OSError(28, f"only {done} of {len(view)} bytes could be written")
        done += count


def _is_text(data: bytes) -> bool:
    """UTF-8 without control characters other than tab, newline and carriage return.

    >>> _is_text(b"# maze\\n"), _is_text(b"\\x1f\\x8b\\x08")
    (True, False)
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return not any(ord(c) < 32 and c not in "\t\n\r" or c == "\x7f" for c in text)


def target_path(file: BinaryIO) -> Path | None:
    """The path ``file`` ends up at, or None for an in-memory file (for writers of companion files).

    The final path :func:`open_target` noted for it, else a file opened by name.

    >>> target_path(io.BytesIO()) is None
    True
    """
    if file in _FINAL:
        return _FINAL[file]
    name = getattr(file, "name", None)
    if isinstance(name, (str, os.PathLike)) and not str(name).startswith("<"):  # not <stdout>
        return Path(name)
    return None


def write_sidecar(folder: Path | None, name: str, data: bytes) -> None:
    """Write a companion file into ``folder``, in the current run's transaction (nothing when
    there is no folder; refused when the main file goes to standard output)."""
    if folder is None:
        return
    if not Path(folder).is_dir():
        raise BlockmazeError(f"cannot write {name}: companion files are written into a folder, "
                             f"and {folder} is not one")
    run = current_transaction()
    if run is not None and run.to_stdout:
        raise BlockmazeError(f"standard output (-o -) carries one file, but this format also "
                             f"writes a {Path(name).suffix or name} file beside it: give -o FILE")
    with open_target(folder / name) as out:
        out.write(data)
    if run is not None:
        run.companions.append(Path(os.path.abspath(Path(folder) / name)))
