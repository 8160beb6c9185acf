"""``python -m blockmaze`` (and the ``blockmaze`` command) runs the command line, under the stop
policy of :mod:`blockmaze.support.stops` (Ctrl-C at any moment: one line, exit 130).

``python -m`` puts the current folder first on the module path. Run from the folder that holds
a clone named ``blockmaze`` (its top folder has no ``__init__.py``), Python takes that folder
for a namespace package named ``blockmaze`` in place of the installed package whenever the
install is found after the path (an editable install's finder): then the folder is taken off
the path and the installed package is run (:func:`_unshadow`).
"""

import os
import sys


def _shadowing(folder: str) -> bool:
    """Whether a module path entry ``folder`` holds a ``blockmaze`` folder that is not a package
    (the top folder of a clone, say)."""
    folder = os.path.abspath(folder or os.curdir)
    inside = os.path.join(folder, "blockmaze")
    return os.path.isdir(inside) and not os.path.exists(os.path.join(inside, "__init__.py"))


def _unshadow() -> None:
    """Run the installed package's command when ``blockmaze`` was imported as a namespace
    package (a folder of that name on the path, not the package): the folders that hold one
    go off the path, what was imported from them is forgotten, and the package is imported
    again."""
    sys.path[:] = [entry for entry in sys.path if not _shadowing(entry)]
    for name in [name for name in sys.modules if name.split(".")[0] == "blockmaze"]:
        del sys.modules[name]
    from blockmaze.__main__ import program as installed

    installed()


if __name__ == "__main__" and getattr(sys.modules.get(__package__ or ""), "__file__", 1) is None:
    _unshadow()

import atexit  # noqa: E402
import contextlib  # noqa: E402
from typing import NoReturn  # noqa: E402

from .support import stops  # noqa: E402


def run() -> int:
    """Run :func:`blockmaze.cli.main` as the command; return its exit code."""
    # blockmaze does no linear algebra: numpy's OpenBLAS need not start a thread per core as it
    # loads (they spin: about 60 ms of CPU and 10 ms of wall at every start). A user's own
    # setting stands; a program that imports blockmaze keeps its own.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    return stops.command(_main)


def program() -> NoReturn:
    """The ``blockmaze`` program: :func:`run`, then the process ends without Python's teardown.

    The teardown frees every module's objects one by one (about 20 ms after a small job, a
    sixth of ``generate 10x10``) and changes nothing a run leaves behind: its files are closed and
    renamed into place before :func:`run` returns. What the teardown would do that matters is
    done first: the exit handlers run (the studio's worker processes, logging) and the output
    streams are flushed.
    """
    code = run()
    atexit._run_exitfuncs()  # (os._exit skips them)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: main has said so
            stream.flush()
    os._exit(code)


def _main():
    from .cli import main

    return main


if __name__ == "__main__":
    program()
