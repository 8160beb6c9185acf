"""``python -m blockmaze`` (and the ``blockmaze`` command) runs the command line, under the stop
policy of :mod:`blockmaze.support.stops` (Ctrl-C at any moment: one line, exit 130)."""

import atexit
import contextlib
import os
import sys
from typing import NoReturn

from .support import stops


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
