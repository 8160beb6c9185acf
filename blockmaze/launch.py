"""Is this process the ``blockmaze`` command? Asked by the package's first lines, so a command
launch holds the stop signals from then on (Ctrl-C during start-up is taken by the command's own
handling: one line, exit 130) while a program that imports blockmaze keeps its signals as they were.

Only the cheapest built-in modules are used here: this runs before anything else of the package.

>>> launched_module(["python", "-X", "importtime", "-m", "blockmaze", "info", "m.schem"])
'blockmaze'
>>> launched_module(["python", "script.py", "-m", "blockmaze"]) is None
True
"""

from __future__ import annotations

import os
import sys

# options of the interpreter that take the next argument as their value
_VALUED = {"-X", "-W", "--check-hash-based-pycs"}


def launched_module(argv: list[str]) -> str | None:
    """The module an interpreter command line runs with ``-m`` (None for a script, ``-c`` or
    standard input)."""
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


def hold_stop_signals() -> None:
    """Hold SIGINT, SIGTERM and SIGHUP in this thread (and every thread started from it) until
    the command line takes them (``blockmaze.cli.main``)."""
    import _signal  # the C module: ``signal`` would import enum, costly this early

    if hasattr(_signal, "pthread_sigmask"):
        _signal.pthread_sigmask(_signal.SIG_BLOCK,
                                {_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP})


def pending_stop() -> int | None:
    """A stop signal that arrived while held (SIGINT first), or None.

    >>> pending_stop() is None
    True
    """
    import _signal

    if not hasattr(_signal, "sigpending"):
        return None
    pending = _signal.sigpending() & {_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP}
    if not pending:
        return None
    return _signal.SIGINT if _signal.SIGINT in pending else min(pending)
