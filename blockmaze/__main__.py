"""``python -m blockmaze`` (and the ``blockmaze`` command) runs the command line, under the stop
policy of :mod:`blockmaze.support.stops` (Ctrl-C at any moment: one line, exit 130)."""

import os
import sys

from .support import stops


def run() -> int:
    """Run :func:`blockmaze.cli.main` as the command; return its exit code."""
    # blockmaze does no linear algebra: numpy's OpenBLAS need not start a thread per core as it
    # loads (they spin: about 60 ms of CPU and 10 ms of wall at every start). A user's own
    # setting stands; a program that imports blockmaze keeps its own.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    return stops.command(_main)


def _main():
    from .cli import main

    return main


if __name__ == "__main__":
    sys.exit(run())
