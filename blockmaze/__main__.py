"""``python -m blockmaze`` (and the ``blockmaze`` command) runs the command line, under the stop
policy of :mod:`blockmaze.support.stops` (Ctrl-C at any moment: one line, exit 130)."""

import sys

from .support import stops


def run() -> int:
    """Run :func:`blockmaze.cli.main` as the command; return its exit code."""
    return stops.command(_main)


def _main():
    from .cli import main

    return main


if __name__ == "__main__":
    sys.exit(run())
