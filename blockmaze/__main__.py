"""``python -m blockmaze`` (and the ``blockmaze`` command) runs the command line.

The stop signals are held from the package's first line (see :mod:`blockmaze.launch`), so Ctrl-C
during start-up is taken by the command's own handling (one line, exit 130), never as a traceback
of an import; one that arrived while the command was loading is answered before the next import.
"""

import os
import signal
import sys

from .errors import STOP_SIGNALS, stop_cause, stop_message
from .launch import hold_stop_signals, pending_stop


def run() -> int:
    """Hold the stop signals, then run :func:`blockmaze.cli.main` (which takes them back)."""
    hold_stop_signals()
    signum = pending_stop()
    if signum is None:
        from .cli import main

        signum = pending_stop()
        if signum is None:
            sys.unraisablehook = _stop_not_swallowed
            return _ended(_to_the_end(main))
    try:  # stopped while loading: nothing was read or written yet
        os.write(2, f"Error: {stop_message(signum)}\n".encode())
    except OSError:
        pass
    return 128 + signum


def _to_the_end(main) -> int:
    """``main()``'s exit code, after which the stop signals are ignored: the answer is decided.
    A signal landing in the instant ``main()`` hands its code back, past its own handling, ends
    the run with one line and 128 + the signal instead of a traceback (the run's files are
    settled by then: all written or all as they were)."""
    code = None
    try:
        code = main()
        for stop in STOP_SIGNALS:  # a handler still pending is skipped once its signal is ignored
            signal.signal(stop, signal.SIG_IGN)
        return code
    except KeyboardInterrupt as stop:
        if code is not None:  # main() had answered: the signal came after
            return code
        signum = getattr(stop, "signum", signal.SIGINT)
        try:
            os.write(2, f"Error: {stop_cause(signum)} as the run ended; its files are all written "
                        "or all as they were\n".encode())
        except OSError:
            pass
        return 128 + signum


def _stop_not_swallowed(unraisable) -> None:
    """Ctrl-C landing in a callback Python cannot raise from (a finalizer inside numba's compiler,
    say) is not printed as "Exception ignored" and not lost: the signal is sent again, so the
    run stops as it would have. Once a stop signal has arrived, the finalizers of objects it cut
    short (llvmlite's, half built when the compile stopped) fail quietly: the one line has said
    what happened. Anything else goes to Python's own hook."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        try:
            os.kill(os.getpid(), signal.SIGINT)
        except KeyboardInterrupt:  # raised here, in the hook, it would be swallowed and printed:
            pass  # the stop watcher has seen the signal and ends the run (cli.main's last resort)
        return
    target = sys.modules.get("blockmaze.export.target")
    if target is not None and target.stop_seen():
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


if __name__ == "__main__":
    sys.exit(run())
