"""``python -m blockmaze`` (and the ``blockmaze`` command) runs the command line.

The stop signals are held from the first line, so Ctrl-C during start-up is taken by the
command's own handling (one line, exit 130), never as a traceback of an import.
"""

import signal
import sys


def run() -> int:
    """Hold the stop signals, then run :func:`blockmaze.cli.main` (which takes them back)."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
    from .cli import main

    return main()


if __name__ == "__main__":
    sys.exit(run())
