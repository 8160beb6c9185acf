"""The stop signals as a job in the foreground of a terminal has them, for the tests that send
them: SIGINT raises KeyboardInterrupt, SIGTERM and SIGHUP take their default action.

A test run can start with other dispositions: ``nohup pytest`` ignores SIGHUP, and a script that
starts ``pytest &`` ignores SIGINT (POSIX shells do so for a background job without job
control). blockmaze keeps an ignored signal ignored (docs/stops.md), as it should, so a test that
signals a run sets the dispositions it expects itself: in the process it signals (:func:`reset`,
in a forked child or a subprocess's ``preexec_fn``) or, for a run inside the test's own process,
for the test's length only (:func:`as_in_a_terminal`; the ``terminal_signals`` fixture).

>>> import signal
>>> with as_in_a_terminal():
...     signal.getsignal(signal.SIGHUP) is signal.SIG_DFL
True
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

STOPS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# what each stop signal does in a foreground job (SIGINT: Python's own handler)
IN_A_TERMINAL = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: signal.SIG_DFL,
                 signal.SIGHUP: signal.SIG_DFL}


def reset() -> None:
    """Give this process the stop signals of a foreground job (a forked child's first step, or a
    ``preexec_fn``: a disposition set before ``exec`` carries over, except a handler, which
    becomes the default action there, as SIGINT's should)."""
    for signum, action in IN_A_TERMINAL.items():
        signal.signal(signum, action)


@contextlib.contextmanager
def as_in_a_terminal() -> Iterator[None]:
    """The stop signals of a foreground job inside the block, the ones before restored after."""
    before = {signum: signal.getsignal(signum) for signum in STOPS}
    reset()
    try:
        yield
    finally:
        for signum, action in before.items():
            signal.signal(signum, action)
