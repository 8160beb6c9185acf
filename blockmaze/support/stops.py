"""Stop signals (Ctrl-C = SIGINT, SIGTERM, SIGHUP): the whole policy, in one place.

``docs/stops.md`` says in plain words what each signal does at each phase of a run; this module
does it. In short:

- **start-up** (the command only): the package's first line holds the stop signals
  (:func:`keep_held_if_command`), so a signal during the imports waits; the command answers one
  that arrived while it loaded with one line, before going on (:func:`command`);
- **work**: numpy's threads (and every thread the command starts) keep them held; the main
  thread takes them (:func:`command_stops`): Ctrl-C raises KeyboardInterrupt, SIGTERM and SIGHUP
  raise :class:`Interrupted`, and the run's temporary files are removed; a watcher thread ends
  the process within a moment even while the main thread is inside a compiled kernel;
- **compile**: while numba imports and compiles a signal is noted, not raised (:func:`noted`):
  cutting through numba's compiler can crash the process;
- **renames** (and making or removing a temporary file): a signal waits for the step to finish,
  then raises :class:`Interrupted` naming the files renamed (:func:`deferred`);
- **after main returns**: the answer stands; the stop signals are ignored.

One line says what happened (:func:`answer`) and the exit code is 128 + the signal.
A program that imports blockmaze keeps its own signal handling: only :func:`noted` and
:func:`deferred` apply to it (and only in its main thread).

The package's first line imports this module: little is imported at its top (``_signal``
rather than ``signal``, which builds enums; ``threading`` only where a function needs it).

>>> stop_cause(2), stop_cause(15)
('interrupted', 'stopped by signal 15')
"""

from __future__ import annotations

import _signal  # the C module: ``signal`` imports enum
import contextlib
import os
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:  # (the package's first line imports this module: nothing more than it needs)
    from collections.abc import Callable, Iterable, Iterator

# signals that stop a run
STOP_SIGNALS = tuple(getattr(_signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                     if hasattr(_signal, name))
_SIGINT = _signal.SIGINT
_SIGHUP = getattr(_signal, "SIGHUP", None)
_SIGTERM = _signal.SIGTERM

# BLOCKMAZE_STOPS_MARKS=FOLDER: a file named after each phase is made in FOLDER as the phase
# begins (held, work, compile, deferred, answered), for tests that wait on the phase, not a clock
MARKS = "BLOCKMAZE_STOPS_MARKS"
# with MARKS, BLOCKMAZE_STOPS_PAUSE=PHASE: the run waits (up to 30 s) once it has marked PHASE, so
# a test's signal lands there and nowhere later, however fast the rest of the run would be
PAUSE = "BLOCKMAZE_STOPS_PAUSE"


# --- wording and exit codes -----------------------------------------------------------------

def stop_cause(signum: int) -> str:
    """How a message names the signal that stopped a run.

    >>> stop_cause(2), stop_cause(15)
    ('interrupted', 'stopped by signal 15')
    """
    return "interrupted" if signum == _SIGINT else f"stopped by signal {signum}"


def stop_message(signum: int) -> str:
    """What a run stopped by a signal before it changed any file says (after ``Error:``).

    >>> stop_message(2), stop_message(15)
    ('interrupted; no file was changed', 'stopped by signal 15; no file was changed')
    """
    return f"{stop_cause(signum)}; no file was changed"


class Interrupted(KeyboardInterrupt):
    """A run stopped by a signal (SIGTERM, SIGHUP; SIGINT too when it arrives during the renames)
    under :func:`command_stops`. ``written`` lists the files renamed into place before it was
    taken (empty: no file was changed)."""

    def __init__(self, signum: int, written: Iterable = ()):
        super().__init__(stop_cause(signum))
        self.signum = signum
        self.written = tuple(written)


def answer(error: BaseException | None) -> tuple[str, int]:
    """The one line (after ``Error:``) and the exit code (128 + the signal) for a run a stop
    signal ended: ``error`` is what ended it (a KeyboardInterrupt, an error one caused, an error
    that followed a stop the watcher saw; see :func:`is_stop`), None when it returned after a stop
    was seen. SIGINT unless the error says which.

    >>> answer(Interrupted(15))
    ('stopped by signal 15; no file was changed', 143)
    >>> answer(Interrupted(1, ["a.png", "b.png"]))
    ('stopped by signal 1 after the renames finished: wrote a.png, b.png', 129)
    """
    stop = _ctrl_c_in(error)
    signum = getattr(stop, "signum", None) or stop_seen() or _SIGINT
    if error is None:  # a Ctrl-C numba's compiler swallowed, seen as the run ended
        return f"{stop_cause(signum)} as the run ended; its files were written", 128 + signum
    written = getattr(stop, "written", ())
    if not written:
        return stop_message(signum), 128 + signum
    names = ", ".join(str(path) for path in written[:3])
    more = f" and {len(written) - 3} more" if len(written) > 3 else ""
    return f"{stop_cause(signum)} after the renames finished: wrote {names}{more}", 128 + signum


def is_stop(error: BaseException) -> bool:
    """Whether a stop signal ended the run that ``error`` ended: it is a KeyboardInterrupt or was
    caused by one (an error inside a kernel), or it followed a stop the watcher saw (numba's
    compiler cut short).

    >>> is_stop(ValueError("a bug")), is_stop(Interrupted(15))
    (False, True)
    """
    return _ctrl_c_in(error) is not None or stop_seen() is not None


def _ctrl_c_in(error: BaseException | None) -> BaseException | None:
    """The KeyboardInterrupt ``error`` is or was caused by (click's Abort, an error inside a
    kernel), or None."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, KeyboardInterrupt):
            return error
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return None


# --- start-up: held from the package's first line (the command only) ------------------------

# options of the interpreter that take the next argument as their value
_VALUED = {"-X", "-W", "--check-hash-based-pycs"}


def launched_module(argv: list[str]) -> str | None:
    """The module an interpreter command line runs with ``-m`` (None for a script, ``-c`` or
    standard input).

    >>> launched_module(["python", "-X", "importtime", "-m", "blockmaze", "info", "m.schem"])
    'blockmaze'
    >>> launched_module(["python", "script.py", "-m", "blockmaze"]) is None
    True
    """
    rest = iter(argv[1:])
    for arg in rest:
        if arg in _VALUED:
            next(rest, None)
            continue
        if arg.startswith("--") or not arg.startswith("-") or arg == "-":
            return None
        flags = arg[1:]
        if flags[0] in "XW":  # -Xdev, -Wignore: the value is attached
            continue
        for position, flag in enumerate(flags):
            if flag == "c":
                return None
            if flag == "m":
                return flags[position + 1:] or next(rest, None)
    return None


def is_command() -> bool:
    """True when this process is ``python -m blockmaze`` or the installed ``blockmaze`` script
    (a script of that name beside the interpreter, as installers put it)."""
    if sys.argv[:1] == ["-m"]:  # the interpreter is still finding the module -m names
        return launched_module(getattr(sys, "orig_argv", [])) == "blockmaze"
    script = sys.argv[0] if sys.argv else ""
    if os.path.basename(script) not in ("blockmaze", "blockmaze.exe", "blockmaze-script.py"):
        return False
    main = sys.modules.get("__main__")
    if getattr(main, "__file__", None) != script:
        return False
    folder = os.path.dirname(os.path.realpath(script))
    return os.path.realpath(folder) == os.path.realpath(os.path.dirname(sys.executable))


def keep_held_if_command(before) -> None:
    """Called by the package's first lines, which held the stop signals (``before``: the mask
    they replaced, None where there are no masks): the command keeps them held until its main
    thread takes them; a program importing blockmaze gets its mask back, as it was."""
    if before is None:
        return
    if is_command():
        _mark("held")
    else:
        _signal.pthread_sigmask(_signal.SIG_SETMASK, before)


def _hold() -> tuple | None:
    """Hold the stop signals in this thread (and every thread started from it); the mask before."""
    if not hasattr(_signal, "pthread_sigmask"):
        return None
    return tuple(_signal.pthread_sigmask(_signal.SIG_BLOCK, STOP_SIGNALS))


def _pending() -> int | None:
    """A stop signal that arrived while held (SIGINT first), or None."""
    if not hasattr(_signal, "sigpending"):
        return None
    pending = _signal.sigpending() & set(STOP_SIGNALS)
    if not pending:
        return None
    return _SIGINT if _SIGINT in pending else min(pending)


def command(load: Callable[[], Callable[[], int]]) -> int:
    """Run the command: ``load()`` imports and returns its main function, which answers the stops
    of its run (:func:`command_stops`, :func:`answer`). Around it: a stop that arrived while the
    command loaded is answered with one line; once main has answered, the stop signals are
    ignored; a run ended by a signal leaves at once. Returns the exit code."""
    _hold()
    signum = _pending()
    if signum is None:
        main = load()
        signum = _pending()
        if signum is None:
            sys.unraisablehook = _stop_not_swallowed
            return _ended(_to_the_end(main))
    _say(f"Error: {stop_message(signum)}")  # stopped while loading: nothing read or written yet
    return 128 + signum


def _to_the_end(main: Callable[[], int]) -> int:
    """``main()``'s exit code, after which the stop signals are ignored: the answer is decided.
    A signal landing in the instant ``main()`` hands its code back, past its own handling, ends
    the run with one line and 128 + the signal instead of a traceback (the run's files are
    settled by then: all written or all as they were)."""
    code = None
    try:
        code = main()
        _mark("answered")
        for stop in STOP_SIGNALS:  # a handler still pending is skipped once its signal is ignored
            _signal.signal(stop, _signal.SIG_IGN)
        return code
    except KeyboardInterrupt as stop:
        if code is not None:  # main() had answered: the signal came after
            return code
        signum = getattr(stop, "signum", _SIGINT)
        _say(f"Error: {stop_cause(signum)} as the run ended; its files are all written or all as "
             "they were")
        return 128 + signum


def _stop_not_swallowed(unraisable) -> None:
    """Ctrl-C landing in a callback Python cannot raise from (a finalizer inside numba's compiler,
    say) is not printed as "Exception ignored" and not lost: the signal is sent again, so the
    run stops as it would have. Once a stop signal has arrived, the finalizers of objects it cut
    short (llvmlite's, half built when the compile stopped) fail quietly: the one line has said
    what happened. Anything else goes to Python's own hook."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        try:
            os.kill(os.getpid(), _SIGINT)
        except KeyboardInterrupt:  # raised here, in the hook, it would be swallowed and printed:
            pass  # the stop watcher has seen the signal and ends the run
        return
    if stop_seen() is not None:
        return
    sys.__unraisablehook__(unraisable)


def _ended(code: int) -> int:
    """A run stopped by a signal (exit 128 + the signal) leaves at once: its temporaries are
    gone, and the interpreter's clean-up of numba and numpy would only delay the answer."""
    if code <= 128:
        return code
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def _say(line: str) -> None:
    with contextlib.suppress(OSError):
        os.write(2, f"{line}\n".encode())


# --- work: the command's main thread takes them; the watcher ---------------------------------

@contextlib.contextmanager
def command_stops() -> Iterator[Callable[[], None]]:
    """The command's run (main thread): the stop signals stay held in every thread started inside
    the block (numpy's BLAS workers: only the main thread takes them, so renames can defer them);
    SIGINT, SIGTERM and SIGHUP raise :class:`Interrupted` (a KeyboardInterrupt), so a stopped run
    removes its temporary files; the stop watcher ends the process within a moment when the main
    thread cannot raise (inside a compiled kernel). Yields the function the main thread calls to
    take the signals once its threads are started (numpy imported); the mask is put back after.

    >>> with command_stops() as take:
    ...     take()
    """
    before = _hold()
    try:
        with _raising(), _watched():
            yield lambda: _take_here(before)
    finally:
        if before is not None:
            _signal.pthread_sigmask(_signal.SIG_SETMASK, before)


def _take_here(before: tuple | None) -> None:
    """Let the calling thread (only) take the stop signals again."""
    if before is not None:
        _signal.pthread_sigmask(_signal.SIG_SETMASK, set(before) - set(STOP_SIGNALS))
    _mark("work")


@contextlib.contextmanager
def _raising() -> Iterator[None]:
    """Inside the block SIGINT, SIGTERM and SIGHUP raise :class:`Interrupted` (a
    KeyboardInterrupt) naming what the run's steps had put in place (:func:`deferred`). Signals
    that are ignored (``nohup``) or have a handler of the program's own stay so; outside the
    main thread nothing changes."""
    if not _in_main_thread():
        yield
        return
    previous = {}
    for signum in STOP_SIGNALS:
        if _signal.getsignal(signum) in (_signal.SIG_DFL, _signal.default_int_handler):
            previous[signum] = _signal.signal(signum, _raise_interrupted)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            _signal.signal(signum, handler)


def _raise_interrupted(signum, frame):
    raise Interrupted(signum, _written)  # (what the run's steps had put in place, if any)


_seen: list[int] = []  # the stop signals the watcher has seen arrive, in order
_written: list = []  # what the watched run's deferred steps put in place (a later stop says so)
_watching: list[bool] = []  # a watcher runs (see _watched)
_serving: list[bool] = []  # a server runs (see serving): it shuts itself down on a stop
_deferring: list[int] = []  # one entry per deferred step under way: the watcher waits for them
_at_forced_exit: list[Callable[[], None]] = []  # clean-ups before the watcher ends the process


def stop_seen() -> int | None:
    """The first stop signal that arrived while the last watcher watched, or None: an error that
    follows one (numba's compiler cut short, say) is the stop's doing, not a bug.

    >>> stop_seen() is None
    True
    """
    return _seen[0] if _seen else None


def at_forced_exit(clean_up: Callable[[], None]) -> None:
    """Call ``clean_up`` (remove the temporary files of open runs) before the stop watcher ends the
    process by force."""
    _at_forced_exit.append(clean_up)


@contextlib.contextmanager
def _watched(seconds: float = 0.15) -> Iterator[None]:
    """Make a stop signal end the process within ``seconds`` even while the main thread is inside
    a compiled kernel (where Python cannot run its handler): a watcher thread learns of each
    signal through the wakeup file descriptor and, if the main thread has not finished by then,
    waits for deferred steps under way, runs the clean-ups (:func:`at_forced_exit`), prints the
    one line and exits with 128 + the signal. Main thread only; elsewhere nothing changes."""
    if not _in_main_thread():
        yield
        return
    import threading

    _seen.clear()  # this run's signals and files only (a program may run several)
    _written.clear()
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    try:
        previous = _signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    except (ValueError, OSError):  # pragma: no cover - no wakeup fd here
        os.close(read_end)
        os.close(write_end)
        yield
        return
    done = threading.Event()
    watcher = threading.Thread(target=_watch, args=(read_end, done, seconds), daemon=True,
                               name="blockmaze-stop-watcher")
    watcher.start()
    _watching.append(True)
    try:
        yield
    finally:
        _watching.pop()
        done.set()
        _signal.set_wakeup_fd(previous)
        os.close(write_end)  # the watcher reads end-of-file and returns
        watcher.join(1)
        os.close(read_end)


def _watch(read_end: int, done, seconds: float) -> None:
    while True:
        try:
            data = os.read(read_end, 1)
        except OSError:
            return
        if data and data[0] in STOP_SIGNALS:  # seen even as the run ends (see answer)
            _seen.append(data[0])
        if not data or done.is_set():
            return
        signum = data[0]
        if signum not in STOP_SIGNALS or _serving or done.wait(seconds):
            continue
        while _deferring:  # let the renames finish: the old set or the new
            time.sleep(0.005)
        if done.wait(0.05):
            continue
        for clean_up in _at_forced_exit:
            with contextlib.suppress(Exception):
                clean_up()
        line, code = answer(Interrupted(signum, _written))
        _say(f"\nError: {line}")
        os._exit(code)


@contextlib.contextmanager
def serving(shut_down: Callable[[int, object], None]) -> Iterator[list[int]]:
    """A server's run inside the command: a stop signal asks it to shut down (the server's own
    ``shut_down(signum, frame)`` for SIGHUP, unless SIGHUP was ignored, as under ``nohup``, where
    it stays ignored; a server such as uvicorn takes SIGINT and SIGTERM
    itself, and raises them again once it is down, when they are ignored), and the stop watcher
    leaves it time to. Yields the list of the stop signals that arrived, filled when the block
    ends: the command then says "stopped" and exits 0 (a server stopped is a server done).
    Main thread only; elsewhere nothing changes."""
    stopped: list[int] = []
    if not _in_main_thread():
        yield stopped
        return
    def hang_up(signum, frame):  # the server's shutdown, asked as for SIGTERM, which the server
        shut_down(_SIGTERM, frame)  # raises again once down, while it is ignored: no late echo

    previous = {}
    for signum in STOP_SIGNALS:
        if signum == _SIGHUP and _signal.getsignal(signum) is _signal.SIG_IGN:
            continue  # (started under nohup: a hang-up stays ignored, the server runs on)
        previous[signum] = _signal.signal(signum, hang_up if signum == _SIGHUP else _signal.SIG_IGN)
    _serving.append(True)
    try:
        yield stopped
    finally:
        _serving.pop()
        stopped.extend(_seen)
        _seen.clear()  # answered: the server said it stopped
        for signum, handler in previous.items():
            _signal.signal(signum, handler)


# --- compile: noted, not raised --------------------------------------------------------------

@contextlib.contextmanager
def noted() -> Iterator[None]:
    """While numba imports and compiles, a stop signal is noted, not raised: a KeyboardInterrupt
    cut through numba's compiler leaves llvmlite objects half built, and freeing them can crash
    the process (SIGSEGV). The command's stop watcher ends the run within a moment; elsewhere
    the signal is raised again once the compile is over. Main thread only (only it takes
    signals)."""
    if not _in_main_thread():
        yield
        return
    _mark("compile")
    taken: list[int] = []
    previous: dict = {}
    try:
        _recording(taken, previous)
        yield
    finally:
        _restore(previous)
        if taken:
            _signal.raise_signal(taken[0])


# --- renames: deferred until the step is over -----------------------------------------------

@contextlib.contextmanager
def deferred() -> Iterator[list]:
    """A step that must finish once begun (renaming a run's files into place, making or removing
    a temporary file): a stop signal arriving inside waits for its end, then raises
    :class:`Interrupted` naming what the block put in the list yielded (the files renamed). Any
    thread may be the one the system hands a signal to, and Python runs the handler in the main
    thread, so a mask alone is not enough: the main thread records them. Outside the main
    thread: held only (the main thread takes them meanwhile).

    >>> with deferred() as written:
    ...     written.append("m.schem")
    """
    done: list = []
    taken: list[int] = []
    previous: dict = {}
    _deferring.append(1)  # (the watcher waits for every thread's)
    try:
        if _in_main_thread():
            _recording(taken, previous)
            _mark("deferred")
        with _held():
            yield done
    finally:  # signals held until now reach the recorder first, then handlers come back
        _restore(previous)
        if _watching:
            _written.extend(done)
        _deferring.pop()
    if taken:
        raise Interrupted(taken[0], tuple(_written) if _watching else done)


@contextlib.contextmanager
def _held() -> Iterator[None]:
    """Hold the stop signals in this thread (delivered at the end of the block)."""
    before = _hold()
    try:
        yield
    finally:
        if before is not None:
            _signal.pthread_sigmask(_signal.SIG_SETMASK, before)


def _recording(taken: list[int], previous: dict) -> None:
    """Point the handlers of the stop signals (those not ignored) at ``taken``; the handlers
    before go into ``previous``."""
    for signum in STOP_SIGNALS:
        if _signal.getsignal(signum) not in (_signal.SIG_IGN, None):  # None: a handler set in C
            previous[signum] = _signal.signal(signum, lambda number, frame: taken.append(number))


def _restore(previous: dict) -> None:
    for signum, handler in previous.items():
        _signal.signal(signum, handler)


def _in_main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def _mark(phase: str) -> None:
    """Make the file named ``phase`` in the folder :data:`MARKS` names, if it does (tests wait
    on it)."""
    folder = os.environ.get(MARKS)
    if folder:
        with contextlib.suppress(OSError):
            os.close(os.open(os.path.join(folder, phase), os.O_CREAT | os.O_WRONLY, 0o644))
        if os.environ.get(PAUSE) == phase:  # the test's signal ends the wait
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                time.sleep(0.005)
